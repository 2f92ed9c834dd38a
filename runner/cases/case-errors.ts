// Turning ajv errors on case files into messages that say where, what was expected,
// what was found, and how to fix it.
import type { ErrorObject } from 'ajv';
import { createRequire } from 'node:module';
import type { distance as DistanceFunction } from 'fastest-levenshtein';
import { RunnerError } from '../util/errors.js';

export interface CaseProblem {
  file: string;
  /** JSON pointer into the file, '' for the whole document. */
  pointer: string;
  message: string;
}

/** One or more case files are broken; nothing runs. */
export class CaseTableError extends RunnerError {
  constructor(readonly problems: CaseProblem[]) {
    const lines = problems.map((p) => `${p.file}${p.pointer === '' ? '' : ` at ${p.pointer}`}: ${p.message}`);
    super(
      'MEM_CASE_FILE',
      `${problems.length} problem${problems.length === 1 ? '' : 's'} in the case table (nothing was run):\n  ${lines.join('\n  ')}`,
    );
  }
}

/** Reduces ajv's error list to the few that explain the failure, as readable problems. */
export function describeSchemaErrors(file: string, document: unknown, errors: ErrorObject[]): CaseProblem[] {
  // A failed oneOf/anyOf reports every branch; keep the specific errors under it.
  const specific = errors.filter((e) => !['oneOf', 'anyOf', 'not', 'if'].includes(e.keyword));
  const chosen = specific.length > 0 ? specific : errors;
  const seen = new Set<string>();
  const problems: CaseProblem[] = [];
  for (const error of chosen) {
    const problem = { file, pointer: pointerOf(error), message: describeError(error, document) };
    const key = `${problem.pointer}|${problem.message}`;
    if (!seen.has(key)) {
      seen.add(key);
      problems.push(problem);
    }
  }
  return problems.slice(0, 10);
}

function pointerOf(error: ErrorObject): string {
  if (error.keyword === 'additionalProperties') {
    return `${error.instancePath}/${String(error.params['additionalProperty'])}`;
  }
  if (error.keyword === 'required') {
    return `${error.instancePath}/${String(error.params['missingProperty'])}`;
  }
  return error.instancePath === '' ? '/' : error.instancePath;
}

function describeError(error: ErrorObject, document: unknown): string {
  const found = describeValue(valueAt(document, error.instancePath));
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties': {
      const field = String(params['additionalProperty']);
      const allowed = allowedProperties(error);
      const guess = allowed ? closest(field, allowed) : undefined;
      return `unknown field "${field}"${guess ? ` (did you mean "${guess}"?)` : ''}; remove it${allowed ? ` or use one of: ${allowed.join(', ')}` : ''}`;
    }
    case 'required':
      return `missing required field "${String(params['missingProperty'])}"`;
    case 'type':
      return `expected ${String(params['type'])}, found ${found}`;
    case 'enum':
    case 'const': {
      const allowed = (params['allowedValues'] as unknown[] | undefined) ?? [params['allowedValue']];
      const text = String(valueAt(document, error.instancePath));
      const guess = closest(text, allowed.map(String));
      return `expected one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}, found ${found}${guess ? ` (did you mean ${JSON.stringify(guess)}?)` : ''}`;
    }
    default:
      return `${error.message ?? 'is invalid'} (found ${found})`;
  }
}

function allowedProperties(error: ErrorObject): string[] | undefined {
  const schema = error.parentSchema as { properties?: Record<string, unknown> } | undefined;
  return schema?.properties ? Object.keys(schema.properties) : undefined;
}

/** Reads the value at a JSON pointer, for "found …" messages. */
export function valueAt(document: unknown, pointer: string): unknown {
  if (pointer === '' || pointer === '/') return document;
  let current: unknown = document;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value);
  const shown = text.length > 60 ? `${text.slice(0, 57)}...` : text;
  const kind = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  return `${kind} ${shown}`;
}

// fastest-levenshtein is CommonJS: required when a hint is wanted, not at every start-up (cli.ts imports this module).
let distanceOf: typeof DistanceFunction | undefined;

/** The candidate within edit distance 2 of the input, if any (for did-you-mean hints). */
export function closest(input: string, candidates: string[]): string | undefined {
  distanceOf ??= (createRequire(import.meta.url)('fastest-levenshtein') as { distance: typeof DistanceFunction }).distance;
  let best: { name: string; distance: number } | undefined;
  for (const name of candidates) {
    const distance = distanceOf(input.toLowerCase(), name.toLowerCase());
    if (distance <= 2 && distance < input.length && (!best || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}
