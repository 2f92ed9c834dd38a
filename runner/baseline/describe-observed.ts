// The observed behaviour of a failing cell in one sentence, for a baseline entry's reason:
// generated from the judged checks (consequence, expected against concluded), never typed per entry.
import type { Case, ExchangeSpec } from '../cases/case-types.js';
import { ALTERNATIVE_NOTE } from '../judge/judge-conclusion.js';
import { CONSEQUENCES, type CallObservation, type Cell, type Check, type Consequence, type ExpectedVerdict, type Outcome, type Verdict } from '../vocabulary/types.js';

const CONSEQUENCE_WORDS: Readonly<Record<Consequence, string>> = {
  'false-success': 'false success',
  'false-failure': 'false failure',
  'unsafe-retry': 'unsafe retry',
  'no-conclusion': 'no conclusion',
  'lost-recovery': 'lost recovery',
  imprecise: 'imprecise',
};

/** How the server's answer reads when the target got it wrong ("reads <this> as …"). */
function describeAnswer(want: ExpectedVerdict, exchange: ExchangeSpec | undefined): string {
  const id = exchange?.response.id;
  if (typeof id === 'object') return "a response carrying another request's id";
  if (id === 'as-string' || id === 'as-number') return 'a response whose id has the wrong JSON type';
  if (id === 'omit') return 'a response without an id';
  if (id === 'null') return 'a response with a null id';
  return ANSWER[want.outcome]?.(want) ?? 'its answer';
}

const ANSWER: Readonly<Record<Outcome, (verdict: ExpectedVerdict) => string>> = {
  TOOL_SUCCESS: () => 'a tool result',
  TOOL_ERROR: () => 'a tool error (isError: true)',
  HTTP_ERROR: (v) => (v.status === undefined ? 'an HTTP error status' : `an HTTP ${v.status}`),
  JSONRPC_ERROR: (v) => (v.code === undefined ? 'a JSON-RPC error' : `a JSON-RPC error ${v.code}`),
  INPUT_REQUIRED: () => 'a request for input (input_required)',
  MALFORMED_JSON: () => 'a body that is not JSON',
  INVALID_ENVELOPE: () => 'a message that is not a valid response to this request',
  INVALID_TOOL_RESULT: () => 'an invalid tool result',
  STREAM_INCOMPLETE: () => 'a stream that ended without the response',
  NO_RESPONSE: () => 'no answer at all',
};

/** How the target read it ("… as <this>"). */
const READ_AS: Readonly<Record<Outcome, (verdict: Pick<Verdict, 'status' | 'code'>) => string>> = {
  TOOL_SUCCESS: () => 'a tool result',
  TOOL_ERROR: () => 'a tool error',
  HTTP_ERROR: (v) => (v.status === undefined ? 'an HTTP error without its status' : `an HTTP ${v.status}`),
  JSONRPC_ERROR: (v) => (v.code === undefined ? 'a JSON-RPC error without its code' : `a JSON-RPC error ${v.code}`),
  INPUT_REQUIRED: () => 'a request for input',
  MALFORMED_JSON: () => 'malformed JSON',
  INVALID_ENVELOPE: () => 'an invalid response',
  INVALID_TOOL_RESULT: () => 'an invalid tool result',
  STREAM_INCOMPLETE: () => 'an incomplete stream',
  NO_RESPONSE: () => 'no response at all',
};

const UNANSWERED: ReadonlySet<Outcome> = new Set(['STREAM_INCOMPLETE', 'NO_RESPONSE']);
const HAS_RESULT: ReadonlySet<Outcome> = new Set(['TOOL_SUCCESS', 'TOOL_ERROR']);

/**
 * One sentence, subject left out ("reads an HTTP 503 as a tool result (false success)"): the
 * worst graded failure of the cell, then the other failed checks by id. A cell whose failures
 * carry no consequence (wire rules, headers, schemas) is described by its first failed check.
 */
export function describeObservedFailure(cell: Cell, item?: Case): string {
  const failed = cell.checks.filter((check) => !check.passed && check.level !== 'INFO');
  const graded = failed.filter((check) => check.consequence !== undefined);
  const worst = graded.sort((a, b) => CONSEQUENCES.indexOf(a.consequence!) - CONSEQUENCES.indexOf(b.consequence!))[0];
  if (worst === undefined) {
    const first = failed[0] ?? cell.checks.find((check) => !check.passed);
    return first ? `fails ${first.message}` : `is ${cell.status}`;
  }
  // A wire check's `exchange` is a transcript position, not a call: it is about the cell's first call.
  const isWire = worst.id.startsWith('wire.');
  const index = isWire ? 0 : readCallIndex(worst, cell);
  const want = cell.expected[index] ?? { outcome: worst.expected as Outcome };
  const exchange = item?.exchanges.length === 1 ? item.exchanges[0] : worst.exchange !== undefined && !isWire ? item?.exchanges[worst.exchange] : undefined;
  const tag = worst.level === 'MUST' || !isAlternative(worst) ? CONSEQUENCE_WORDS[worst.consequence!] : `${CONSEQUENCE_WORDS[worst.consequence!]}; ${ALTERNATIVE_NOTE}, at ${worst.level}`;
  const others = [...new Set(failed.filter((check) => check !== worst && !isSameConclusion(check, worst)).map((check) => check.id))];
  const also = others.length === 0 ? '' : `; also fails ${others.slice(0, 3).join(', ')}${others.length > 3 ? ` and ${others.length - 3} more` : ''}`;
  const call = cell.observed?.calls[index];
  const words = call === undefined ? '' : `; the library ${describeLibraryCall(call)}`;
  return `${describeBehaviour(worst, want, cell.actual[index] ?? null, exchange, call)} (${tag})${words}${also}`;
}

/**
 * What a built-in adapter's library did with the call, in a few stable words (class and code, no
 * message: a reason must read the same in every protocol version the entry covers).
 */
export function describeLibraryCall(call: CallObservation): string {
  if ('hung' in call) return "never settled, even after the host's last-resort abort";
  if ('threw' in call) {
    const { threw } = call;
    const code = threw.code === undefined ? '' : ` ${String(threw.code)}`;
    const status = threw.status === undefined ? '' : ` (status ${threw.status})`;
    return `${call.hostAborted ? "hung until the host's last-resort abort, then threw" : 'threw'} ${threw.class}${code}${status}`;
  }
  const run = readCliRun(call.returned);
  if (run !== undefined) return run.stoppedByHost ? "CLI was stopped by the host's last resort" : typeof run.exit === 'number' ? `CLI exited ${run.exit}` : `CLI died (${String(run.exit)})`;
  const received = readReceived(call.returned);
  if (received === undefined) return 'returned a value';
  if (received.received === 'message') return 'bridge delivered a JSON-RPC message';
  if (received.received === 'line') return 'bridge wrote a line that is not JSON';
  return received.exit === undefined ? "bridge gave no answer before the host's deadline" : 'bridge exited without answering';
}

// mcp-remote's observation: what the host read on the bridge's stdio (map-mcp-remote-outcome.mjs).
function readReceived(value: unknown): { received: string; exit?: unknown } | undefined {
  if (value === null || typeof value !== 'object' || !('received' in value) || typeof value.received !== 'string') return undefined;
  return 'exit' in value ? { received: value.received, exit: value.exit } : { received: value.received };
}

// A command-line client's run (inspector-cli): its exit status, and whether the host's last resort stopped it.
function readCliRun(value: unknown): { exit: unknown; stoppedByHost: boolean } | undefined {
  if (value === null || typeof value !== 'object' || !('exit' in value) || !('stdout' in value) || !('stderr' in value)) return undefined;
  return { exit: value.exit, stoppedByHost: 'stoppedByHost' in value && value.stoppedByHost === true };
}

/** Whether the library concluded nothing on this call by what it did (hung, or died), not by what we could not read. */
function concludedNothing(call: CallObservation | undefined): boolean {
  if (call === undefined) return true;
  if ('hung' in call) return true;
  if ('threw' in call) return call.hostAborted === true;
  const run = readCliRun(call.returned);
  if (run !== undefined) return run.stoppedByHost || typeof run.exit !== 'number';
  return readReceived(call.returned)?.exit !== undefined;
}

/** Whether the call hung until the host's last resort (rather than died). */
function hungUntilHost(call: CallObservation): boolean {
  return 'hung' in call || 'threw' in call || readCliRun(call.returned)?.stoppedByHost === true;
}

function describeBehaviour(check: Check, want: ExpectedVerdict, got: Verdict | null, exchange: ExchangeSpec | undefined, call: CallObservation | undefined): string {
  const answer = describeAnswer(want, exchange);
  if (check.id.startsWith('wire.') && check.consequence !== undefined) return `re-sends the tool (neither read-only nor idempotent) after ${answer}, whose outcome it could not know`;
  if (check.id.startsWith('client.exit')) {
    return check.consequence === 'false-success' ? `exits 0 without a verdict, as if ${answer} were a result` : `exits ${String(check.actual).replace(/^exit /, '')} without a verdict ("the call failed") on ${answer}`;
  }
  if (check.consequence === 'no-conclusion' || got === null) {
    // A library that threw or returned concluded something: only what it did decides the words.
    if (!concludedNothing(call)) return `gives an answer the adapter cannot read on ${answer}`;
    if (call !== undefined) return `${hungUntilHost(call) ? "hangs until the host's last-resort abort" : 'dies without answering'} on ${answer}`;
    const why = /nothing concluded: (.*); expected /.exec(check.message)?.[1] ?? /is not a verdict: (.*)$/.exec(check.message)?.[1];
    return `concludes nothing on ${answer}${why === undefined ? '' : `: ${why}`}`;
  }
  if (check.id.includes('layer')) return `reports ${got.outcome} in the ${String(got.layer)} layer instead of ${String(check.expected)}`;
  if (UNANSWERED.has(got.outcome) && !UNANSWERED.has(want.outcome)) {
    const waited = /time(d)?[ -]?out/i.test(got.detail ?? '') ? 'waits for its own timeout' : 'reports the call unanswered';
    return `${waited} instead of ${HAS_RESULT.has(want.outcome) ? 'reading' : 'rejecting'} ${answer}`;
  }
  return `reads ${answer} as ${READ_AS[got.outcome](got)}`;
}

/** The call or exchange a check is about: `@n` in its id, else the first. */
function readCallIndex(check: Check, cell: Cell): number {
  if (check.exchange !== undefined) return check.exchange;
  const n = /@(\d+)$/.exec(check.id)?.[1];
  return n === undefined ? Math.max(0, cell.expected.length - 1) : Number(n) - 1;
}

/** A status/code/layer check of the same call as `worst` (its failure is part of the same conclusion). */
function isSameConclusion(check: Check, worst: Check): boolean {
  const conclusion = /(?:^|\.)(?:outcome|status|code|layer)(@\d+)?$/;
  const [mine, its] = [conclusion.exec(check.id), conclusion.exec(worst.id)];
  return mine !== null && its !== null && mine[1] === its[1] && check.id.startsWith('client.') === worst.id.startsWith('client.');
}

function isAlternative(check: Check): boolean {
  return check.message.includes(ALTERNATIVE_NOTE);
}
