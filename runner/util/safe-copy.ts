// Copies an untrusted value (a classifier's verdict, a client's report, a thrown error) into the
// results as plain JSON data. Whatever the value is — cyclic, a BigInt, a throwing toJSON or
// getter, a revoked Proxy, nested a million deep, hundreds of megabytes — the copy is bounded
// and the copier never throws: what cannot be copied becomes a visible marker string.
// Iterative (an explicit stack), so depth can never overflow the call stack.

export type SafeJson = null | boolean | number | string | SafeJson[] | { [key: string]: SafeJson };

export interface SafeCopyLimits {
  /** Containers nested deeper than this become a marker. @default 32 */
  maxDepth?: number;
  /** Characters of strings and keys copied in all; what is past the budget becomes a marker. @default 65536 */
  maxChars?: number;
}

export const CIRCULAR = '[circular reference]';

/** The marker a string cut at `kept` characters ends with. */
export function truncationMarker(omitted: number): string {
  return `… [truncated: ${omitted} more characters]`;
}

/** `text` cut to `max` characters (never splitting a surrogate pair), with a visible marker when cut. */
export function capText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max);
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return text.slice(0, end) + truncationMarker(text.length - end);
}

interface Frame {
  target: SafeJson[] | { [key: string]: SafeJson };
  source: object;
  keys: string[];
  /** Entries the source has (an array may have more than the keys copied). */
  total: number;
  index: number;
  depth: number;
}

type Converted = { value: SafeJson | undefined; frame?: Omit<Frame, 'index'> };

/** A bounded, JSON-safe copy of any value. Never throws. */
export function copySafeValue(value: unknown, limits: SafeCopyLimits = {}): SafeJson {
  const maxDepth = limits.maxDepth ?? 32;
  let budget = limits.maxChars ?? 65_536;
  const ancestors = new Set<object>();
  const stack: Frame[] = [];

  const convert = (input: unknown, key: string, depth: number): Converted => {
    let item = input;
    if ((typeof item === 'object' && item !== null) || typeof item === 'bigint') {
      // JSON.stringify's rule: a toJSON method replaces the value (once).
      try {
        const toJSON = (item as { toJSON?: unknown }).toJSON;
        if (typeof toJSON === 'function') item = toJSON.call(item, key);
      } catch (error) {
        return { value: `[toJSON threw: ${describeThrown(error, 200)}]` };
      }
    }
    switch (typeof item) {
      case 'string': {
        const kept = capText(item, Math.max(0, budget));
        budget -= Math.min(item.length, kept.length) + 2;
        return { value: kept };
      }
      case 'number':
        budget -= 8;
        return { value: Number.isFinite(item) ? item : null };
      case 'boolean':
        budget -= 5;
        return { value: item };
      case 'bigint': {
        const text = capText(item.toString(), 200);
        budget -= text.length + 10;
        return { value: `[BigInt ${text}]` };
      }
      case 'undefined':
      case 'function':
      case 'symbol':
        return { value: undefined };
    }
    if (item === null) {
      budget -= 4;
      return { value: null };
    }
    const object = item as object;
    if (ancestors.has(object)) return { value: CIRCULAR };
    if (depth >= maxDepth) return { value: `[nested deeper than ${maxDepth} levels]` };
    try {
      const isArray = Array.isArray(object);
      const total = isArray ? (object as unknown[]).length : 0;
      const keys = isArray ? Array.from({ length: Math.min(total, Math.max(0, budget)) }, (_, i) => String(i)) : Object.keys(object);
      budget -= 2;
      return { value: null, frame: { target: isArray ? [] : {}, source: object, keys, total: isArray ? total : keys.length, depth: depth + 1 } };
    } catch (error) {
      return { value: `[unreadable object: ${describeThrown(error, 200)}]` };
    }
  };

  const root = convert(value, '', 0);
  if (!root.frame) return root.value ?? null;
  const push = (frame: Omit<Frame, 'index'>) => {
    ancestors.add(frame.source);
    stack.push({ ...frame, index: 0 });
  };
  push(root.frame);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    if (frame.index >= frame.keys.length || budget <= 0) {
      if (frame.index < frame.total) {
        const marker = `[truncated: ${frame.total - frame.index} more entries]`;
        if (Array.isArray(frame.target)) frame.target.push(marker);
        else frame.target['…'] = marker;
      }
      ancestors.delete(frame.source);
      stack.pop();
      continue;
    }
    const key = frame.keys[frame.index++]!;
    let child: unknown;
    try {
      child = (frame.source as Record<string, unknown>)[key];
    } catch (error) {
      child = `[getter threw: ${describeThrown(error, 200)}]`;
    }
    const converted = convert(child, key, frame.depth);
    if (Array.isArray(frame.target)) {
      frame.target.push(converted.frame ? converted.frame.target : (converted.value ?? null));
    } else {
      budget -= key.length + 4;
      if (converted.frame) frame.target[capText(key, 200)] = converted.frame.target;
      else if (converted.value !== undefined) frame.target[capText(key, 200)] = converted.value;
    }
    if (converted.frame) push(converted.frame);
  }
  return root.frame.target;
}

/** JSON text of a bounded, safe copy of `value`. Never throws. */
export function stringifySafe(value: unknown, limits: SafeCopyLimits = {}): string {
  if (value === undefined) return 'undefined';
  return JSON.stringify(copySafeValue(value, limits));
}

/** A one-line description of something thrown (an Error, a string, anything), at most `max` characters. Never throws. */
export function describeThrown(error: unknown, max = 2000): string {
  try {
    if (error instanceof Error) {
      const name = typeof error.name === 'string' ? error.name : 'Error';
      const message = typeof error.message === 'string' ? error.message : stringifySafe(error.message, { maxChars: max });
      return capText(`${name}: ${message}`, max);
    }
    if (typeof error === 'string') return capText(error, max);
    return capText(stringifySafe(error, { maxChars: max }), max);
  } catch {
    return '[an unreadable thrown value]';
  }
}

/** An Error's message alone (anything else described whole), at most `max` characters. Never throws. */
export function describeThrownMessage(error: unknown, max = 2000): string {
  try {
    if (error instanceof Error && typeof error.message === 'string') return capText(error.message, max);
  } catch {
    // A throwing message getter: describe the value whole below.
  }
  return describeThrown(error, max);
}
