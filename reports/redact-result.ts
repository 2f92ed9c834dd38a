// The result model as it may be published in results.json and TAP: every piece of wire or
// target text redacted (secret headers replaced, tokens in free text replaced). Only the
// untrusted parts are touched: digests, ids and case texts are ours and stay as they are.
import type { Cell, Check, RecordedExchange, Recording, RunResult, TargetRunInfo, Verdict } from '../runner/types.js';
import { isSecretHeader, REDACTED, redactText as redactTextUncached } from './redact.js';

// A large run repeats the same bodies, headers and messages across targets and versions:
// redact each distinct short text once (bounded, so a run of unique texts cannot grow it).
const memo = new Map<string, string>();
const MEMO_LIMIT = 50_000;

/** `redactText`, memoised for texts up to 4 KiB. */
export function redactText(text: string): string {
  if (text.length < 8 || text.length > 4096) return redactTextUncached(text);
  let clean = memo.get(text);
  if (clean === undefined) {
    if (memo.size >= MEMO_LIMIT) memo.clear();
    clean = redactTextUncached(text);
    memo.set(text, clean);
  }
  return clean;
}

/** A copy of the result with recordings, target output, verdicts and checks redacted. */
export function redactRunResult(result: RunResult): RunResult {
  return { ...result, cells: result.cells.map(redactCell) };
}

/** One cell as it may be published (see redactRunResult); reports that stream redact cell by cell. */
export function redactCell(cell: Cell): Cell {
  return {
    ...cell,
    ...(cell.reason === undefined ? {} : { reason: redactText(cell.reason) }),
    checks: cell.checks.map(redactCheck),
    actual: cell.actual.map((verdict) => (verdict === null ? null : redactVerdict(verdict))),
    ...(cell.recording ? { recording: redactRecording(cell.recording) } : {}),
    ...(cell.targetRun ? { targetRun: redactRun(cell.targetRun) } : {}),
  };
}

/** A check as it may be published. */
export function redactCheck(check: Check): Check {
  return { ...check, message: redactText(check.message), expected: redactDeep(check.expected), actual: redactDeep(check.actual) };
}

/** A verdict as it may be published. */
export function redactVerdict(verdict: Verdict): Verdict {
  return redactDeep(verdict) as Verdict;
}

function redactRun(run: TargetRunInfo): TargetRunInfo {
  return {
    ...run,
    ...(run.stdout === undefined ? {} : { stdout: redactText(run.stdout) }),
    ...(run.stderr === undefined ? {} : { stderr: redactText(run.stderr) }),
  };
}

function redactRecording(recording: Recording): Recording {
  return { url: redactText(recording.url), exchanges: recording.exchanges.map(redactExchange) };
}

function redactExchange(exchange: RecordedExchange): RecordedExchange {
  const { request, response } = exchange;
  return {
    ...exchange,
    request: {
      ...request,
      path: redactText(request.path),
      headers: redactHeaders(request.headers),
      body: redactText(request.body),
      ...(request.rpc ? { rpc: redactDeep(request.rpc) as typeof request.rpc } : {}),
    },
    response: response && {
      ...response,
      headers: redactHeaders(response.headers),
      body: redactText(response.body),
      ...(response.events ? { events: response.events.map((event) => ({ ...event, text: redactText(event.text) })) } : {}),
    },
  };
}

// Header values are redacted, control characters kept: results.json is data, JSON escapes them.
function redactHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, isSecretHeader(name) ? REDACTED : redactText(value)]));
}

function redactDeep(value: unknown): unknown {
  if (typeof value === 'string') return redactText(value);
  if (Array.isArray(value)) return value.map(redactDeep);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redactDeep(item)]));
  return value;
}
