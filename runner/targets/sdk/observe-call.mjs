// What a client library did with one tool call, recorded before any mapping: the value it resolved
// with, or the error it threw with its class, code, status, typed properties and causes. The record
// is plain JSON with every part capped, so it crosses the worker's stdout, lands in results.json and
// can be stored as a fixture (test/stack-truth/) and mapped again later. Plain ESM, shipped as-is.
//
// Format (docs/adapter-observation.md):
//   { returned: <preview> }                       the call resolved
//   { threw: <thrown>, hostAborted?: true }       the call rejected (hostAborted: after the host's own abort)
//   { hung: { afterMs } }                          it never settled, even after the host's abort
//   <thrown> = { class, name, message, instanceOf?, code?, status?, data?, issues?, properties?, cause?, value? }

/** Caps of a preview: deep or long values are cut with a marker, never dropped silently. */
export const PREVIEW_CAPS = Object.freeze({ depth: 6, string: 2000, items: 50, keys: 50 });
/**
 * An error's own message is kept longer than other strings: a library may leave nothing else of
 * the error underneath (langchain's ToolException carries the SDK's ZodError as its issue list in
 * JSON, 3–20 KB), and the mapping reads that list back.
 */
export const MESSAGE_CAP = 16_000;
const MAX_CAUSE_DEPTH = 3;
const KNOWN_KEYS = new Set(['name', 'message', 'stack', 'cause', 'code', 'status', 'statusCode', 'data', 'issues']);

/**
 * The record of an error a call rejected with. `classes` maps names to the library's exported error
 * classes, so `instanceOf` says which of them the error is (what an application's `instanceof` sees),
 * whatever a bundler named the constructor.
 */
export function observeThrown(error, classes = {}, depth = 0) {
  if (error === null || (typeof error !== 'object' && typeof error !== 'function')) {
    return { class: typeof error, name: '', message: cap(String(error)), value: preview(error) };
  }
  const record = { class: readClassName(error), name: readString(error, 'name'), message: cap(readString(error, 'message'), MESSAGE_CAP) };
  const instanceOf = Object.entries(classes)
    .filter(([, ctor]) => typeof ctor === 'function' && safeInstanceOf(error, ctor))
    .map(([name]) => name);
  if (instanceOf.length > 0) record.instanceOf = instanceOf;
  const code = readOwn(error, 'code');
  if (typeof code === 'string' || typeof code === 'number') record.code = code;
  const status = [readOwn(error, 'status'), readOwn(error, 'statusCode'), readOwn(readOwn(error, 'data'), 'status')].find((value) => typeof value === 'number');
  if (status !== undefined) record.status = status;
  const data = readOwn(error, 'data');
  if (data !== undefined) record.data = preview(data);
  const issues = readOwn(error, 'issues');
  if (Array.isArray(issues)) record.issues = preview(issues);
  const properties = readOtherProperties(error);
  if (properties) record.properties = properties;
  const cause = readOwn(error, 'cause');
  if (cause !== undefined && depth < MAX_CAUSE_DEPTH) record.cause = observeThrown(cause, classes, depth + 1);
  return record;
}

/**
 * The error classes a library module exports (every exported function whose prototype is an Error),
 * by export name: what `observeThrown`'s `instanceOf` is checked against. Several modules (a stack
 * and the SDK under it) may be merged with `{ ...collectErrorClasses(a), ...collectErrorClasses(b) }`.
 */
export function collectErrorClasses(moduleNamespace) {
  const classes = {};
  for (const [name, value] of Object.entries(moduleNamespace ?? {})) {
    if (typeof value === 'function' && value.prototype instanceof Error) classes[name] = value;
  }
  return classes;
}

/** The record of a value a call resolved with. */
export function observeReturned(value) {
  return { returned: preview(value) };
}

/**
 * A JSON-safe copy of `value` within PREVIEW_CAPS: cycles, functions, symbols, bigints and
 * `undefined` become marked strings; symbol-keyed properties are kept as "@@Symbol(name)" keys (a
 * library may hide the content it returns behind one).
 */
export function preview(value, depth = 0, seen = new WeakSet()) {
  if (value === undefined) return '[undefined]';
  if (value === null || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : `[number ${String(value)}]`;
  if (typeof value === 'string') return cap(value);
  if (typeof value === 'bigint') return `[bigint ${value}]`;
  if (typeof value === 'symbol') return `[${String(value)}]`;
  if (typeof value === 'function') return `[function ${value.name || 'anonymous'}]`;
  if (seen.has(value)) return '[circular]';
  if (depth >= PREVIEW_CAPS.depth) return Array.isArray(value) ? `[array of ${value.length}]` : '[object]';
  seen.add(value);
  try {
    if (Array.isArray(value)) {
      const items = value.slice(0, PREVIEW_CAPS.items).map((item) => preview(item, depth + 1, seen));
      if (value.length > PREVIEW_CAPS.items) items.push(`[… ${value.length - PREVIEW_CAPS.items} more items]`);
      return items;
    }
    if (value instanceof Error) return { '@@error': observeThrown(value, {}, MAX_CAUSE_DEPTH) };
    const out = {};
    const keys = [...Object.keys(value), ...Object.getOwnPropertySymbols(value).filter((symbol) => isEnumerable(value, symbol))];
    for (const key of keys.slice(0, PREVIEW_CAPS.keys)) {
      const name = typeof key === 'symbol' ? `@@${String(key)}` : key;
      out[name] = preview(safeGet(value, key), depth + 1, seen);
    }
    if (keys.length > PREVIEW_CAPS.keys) out['@@more'] = `[… ${keys.length - PREVIEW_CAPS.keys} more keys]`;
    return out;
  } finally {
    seen.delete(value);
  }
}

function readOtherProperties(error) {
  const out = {};
  let count = 0;
  for (const key of Object.keys(error)) {
    if (KNOWN_KEYS.has(key) || count >= PREVIEW_CAPS.keys) continue;
    out[key] = preview(safeGet(error, key), 1);
    count++;
  }
  return count > 0 ? out : undefined;
}

function readClassName(value) {
  try {
    const name = value.constructor?.name;
    return typeof name === 'string' && name !== '' ? name : '(anonymous)';
  } catch {
    return '(unreadable)';
  }
}

function readString(value, key) {
  const read = safeGet(value, key);
  return typeof read === 'string' ? read : read === undefined ? '' : String(read);
}

function readOwn(value, key) {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return undefined;
  return safeGet(value, key);
}

function safeGet(value, key) {
  try {
    return value[key];
  } catch (error) {
    return `[getter threw: ${error instanceof Error ? error.message : String(error)}]`;
  }
}

function safeInstanceOf(value, ctor) {
  try {
    return value instanceof ctor;
  } catch {
    return false;
  }
}

function isEnumerable(value, key) {
  return Object.prototype.propertyIsEnumerable.call(value, key);
}

function cap(text, max = PREVIEW_CAPS.string) {
  return text.length <= max ? text : `${text.slice(0, max)}[… ${text.length - max} more characters]`;
}
