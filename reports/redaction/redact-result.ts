// The result model as it may be published in results.json and TAP: every piece of wire or
// target text redacted (secret headers replaced, tokens in free text replaced). Only the
// untrusted parts are touched: digests, ids and case texts are ours and stay as they are.
import type { Cell, Check, RecordedExchange, Recording, RunResult, TargetRunInfo, Verdict } from '../../runner/vocabulary/types.js';
import { copySafeValue } from '../../runner/util/safe-copy.js';
import { isSecretHeader, REDACTED, redactText as redactTextUncached } from './redact.js';

// A large run repeats the same bodies, headers and messages across targets and versions:
// redact each distinct short text once (bounded, so a run of unique texts cannot grow it). The
// bound is on characters too: 50,000 texts of up to 4 KiB each held about 100 MB while a run of
// 100,000 distinct cases wrote its results.json (issue 28 item 4).
const memo = new Map<string, string>();
const MEMO_LIMIT = 50_000;
const MEMO_MAX_CHARS = 4 * 1024 * 1024;
let memoChars = 0;

/** `redactText`, memoised for texts up to 4 KiB. */
export function redactText(text: string): string {
  if (text.length < 8 || text.length > 4096) return redactTextUncached(text);
  let clean = memo.get(text);
  if (clean === undefined) {
    if (memo.size >= MEMO_LIMIT || memoChars >= MEMO_MAX_CHARS) {
      memo.clear();
      memoChars = 0;
    }
    clean = redactTextUncached(text);
    memo.set(text, clean);
    memoChars += text.length + (clean === text ? 0 : clean.length);
  }
  return clean;
}

/** A copy of the result with recordings, target output, verdicts and checks redacted. */
export function redactRunResult(result: RunResult): RunResult {
  return { ...result, cells: result.cells.map(redactCell) };
}

/**
 * One cell as it may be published (see redactRunResult); reports that stream redact cell by
 * cell. Copy on write: what redaction leaves unchanged is returned as is (most of a large run),
 * which spares a copy of every cell.
 */
export function redactCell(cell: Cell): Cell {
  const reason = cell.reason === undefined ? undefined : redactText(cell.reason);
  const checks = mapSame(cell.checks, redactCheck);
  const actual = mapSame(cell.actual, (verdict) => (verdict === null ? null : redactVerdict(verdict)));
  const recording = cell.recording ? redactRecording(cell.recording) : undefined;
  const targetRun = cell.targetRun ? redactRun(cell.targetRun) : undefined;
  // What a library threw or returned is library and wire text (an error message may quote a header or a token).
  const observed = cell.observed ? (redactDeep(cell.observed) as Cell['observed']) : undefined;
  if (reason === cell.reason && checks === cell.checks && actual === cell.actual && recording === cell.recording && targetRun === cell.targetRun && observed === cell.observed) return cell;
  return {
    ...cell,
    ...(reason === undefined ? {} : { reason }),
    checks,
    actual,
    ...(recording ? { recording } : {}),
    ...(targetRun ? { targetRun } : {}),
    ...(observed ? { observed } : {}),
  };
}

/** A check as it may be published. */
export function redactCheck(check: Check): Check {
  const message = redactText(check.message);
  const expected = redactDeep(check.expected);
  const actual = redactDeep(check.actual);
  if (message === check.message && expected === check.expected && actual === check.actual) return check;
  return { ...check, message, expected, actual };
}

/** A verdict as it may be published. */
export function redactVerdict(verdict: Verdict): Verdict {
  return redactDeep(verdict) as Verdict;
}

function redactRun(run: TargetRunInfo): TargetRunInfo {
  const stdout = run.stdout === undefined ? undefined : redactText(run.stdout);
  const stderr = run.stderr === undefined ? undefined : redactText(run.stderr);
  if (stdout === run.stdout && stderr === run.stderr) return run;
  return { ...run, ...(stdout === undefined ? {} : { stdout }), ...(stderr === undefined ? {} : { stderr }) };
}

// A recording is published as its url and exchanges only.
function redactRecording(recording: Recording): Recording {
  const url = redactText(recording.url);
  const exchanges = mapSame(recording.exchanges, redactExchange);
  if (url === recording.url && exchanges === recording.exchanges && Object.keys(recording).length === 2) return recording;
  return { url, exchanges };
}

function redactExchange(exchange: RecordedExchange): RecordedExchange {
  const { request, response } = exchange;
  const path = redactText(request.path);
  const requestHeaders = redactHeaders(request.headers);
  const requestBody = redactText(request.body);
  const rpc = request.rpc ? (redactDeep(request.rpc) as typeof request.rpc) : undefined;
  const sameRequest = path === request.path && requestHeaders === request.headers && requestBody === request.body && rpc === request.rpc;
  let sameResponse = true;
  let nextResponse = response;
  if (response) {
    const headers = redactHeaders(response.headers);
    const body = redactText(response.body);
    const events = response.events ? mapSame(response.events, (event) => { const text = redactText(event.text); return text === event.text ? event : { ...event, text }; }) : undefined;
    sameResponse = headers === response.headers && body === response.body && events === response.events;
    if (!sameResponse) nextResponse = { ...response, headers, body, ...(events ? { events } : {}) };
  }
  if (sameRequest && sameResponse) return exchange;
  return {
    ...exchange,
    request: sameRequest ? request : { ...request, path, headers: requestHeaders, body: requestBody, ...(rpc ? { rpc } : {}) },
    response: nextResponse,
  };
}

// Header values are redacted, control characters kept: results.json is data, JSON escapes them.
function redactHeaders(headers: Record<string, string>): Record<string, string> {
  return mapValuesSame(headers, (value, name) => (isSecretHeaderName(name) ? REDACTED : redactText(value)));
}

// Header names repeat across a run (content-type, accept…): each is classified once (bounded).
const secretNames = new Map<string, boolean>();

function isSecretHeaderName(name: string): boolean {
  let secret = secretNames.get(name);
  if (secret === undefined) {
    if (secretNames.size >= 1000) secretNames.clear();
    secret = isSecretHeader(name);
    secretNames.set(name, secret);
  }
  return secret;
}

/**
 * An object with fn applied to each own enumerable value, keys in order, as Object.fromEntries
 * would build it; the same object when fn changed no value (no entry array is built meanwhile).
 */
function mapValuesSame<T>(object: Record<string, T>, fn: (value: T, key: string) => T): Record<string, T> {
  const keys = Object.keys(object);
  let out: Record<string, T> | undefined;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const value = object[key] as T;
    const next = fn(value, key);
    if (out === undefined && next !== value) {
      out = {};
      for (let j = 0; j < i; j++) setOwn(out, keys[j]!, object[keys[j]!] as T);
    }
    if (out !== undefined) setOwn(out, key, next);
  }
  return out ?? object;
}

// A data property even for the key `__proto__` (an assignment would set the prototype instead).
function setOwn<T>(object: Record<string, T>, key: string, value: T): void {
  if (key === '__proto__') Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  else object[key] = value;
}

// Values that reach here from a run are bounded JSON data (runner/run/copy-target-outcome.ts);
// a result built elsewhere (the programmatic API) may hold anything: what JSON cannot carry as
// it is (a BigInt, a toJSON, a throwing getter, a cycle, extreme depth) is copied safely first.
const MAX_REDACT_DEPTH = 64;

function redactDeep(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactText(value);
  if (typeof value === 'bigint') return copySafeValue(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_REDACT_DEPTH) return `[nested deeper than ${MAX_REDACT_DEPTH} levels]`;
  try {
    if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return redactDeep(copySafeValue(value, { maxDepth: 16 }), depth);
    if (Array.isArray(value)) return mapSame(value, (item) => redactDeep(item, depth + 1));
    return mapValuesSame(value as Record<string, unknown>, (item) => redactDeep(item, depth + 1));
  } catch {
    return redactDeep(copySafeValue(value, { maxDepth: 16 }), depth);
  }
}

// items.map(fn), but the same array when fn changed no item.
function mapSame<T>(items: T[], fn: (item: T) => T): T[] {
  let out: T[] | undefined;
  for (let i = 0; i < items.length; i++) {
    const item = items[i] as T;
    const next = fn(item);
    if (out) out.push(next);
    else if (next !== item) out = [...items.slice(0, i), next];
  }
  return out ?? items;
}
