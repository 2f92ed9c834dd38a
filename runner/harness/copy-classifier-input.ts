// A classifier function runs in-process on its own copy of each input, so a mutation reaches
// nothing else (the harness, another target, the evidence). The input is plain data with a known
// shape: strings are immutable and shared, everything else is copied.
import type { ClassifierInput } from '../vocabulary/types.js';

// Deeper than any case the table validates; past it the copy falls back to structuredClone.
const MAX_COPY_DEPTH = 64;

/** A deep copy of a classifier input, equal to structuredClone's for its plain-data shape, at a fraction of the cost. */
export function copyClassifierInput(input: ClassifierInput): ClassifierInput {
  const copy: ClassifierInput = {
    ...input,
    headers: copyValue(input.headers, 0) as Record<string, string>,
    bodyBytes: input.bodyBytes.slice(),
    expectedId: copyValue(input.expectedId, 0) as ClassifierInput['expectedId'],
    request: copyValue(input.request, 0) as ClassifierInput['request'],
  };
  if (input.outputSchema !== undefined) copy.outputSchema = copyValue(input.outputSchema, 0) as Record<string, unknown>;
  if (input.transportError !== undefined) copy.transportError = { ...input.transportError };
  return copy;
}

/** Copies JSON-like data (plain objects, arrays, primitives); anything else goes through structuredClone. */
function copyValue(value: unknown, depth: number): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= MAX_COPY_DEPTH) return structuredClone(value);
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let index = 0; index < value.length; index++) out[index] = copyValue(value[index], depth + 1);
    return out;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return structuredClone(value);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = copyValue((value as Record<string, unknown>)[key], depth + 1);
    // An own "__proto__" key (JSON.parse makes one) stays a property, as structuredClone keeps it.
    if (key === '__proto__') Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true });
    else out[key] = item;
  }
  return out;
}
