// Reading an observation record (observe-call.mjs) for the stack mappers: which class an error is,
// its cause chain, the verdict constructor and the "lost" rule every stack shares. Plain ESM,
// shipped as-is; pure functions of the record and the context (docs/adapter-observation.md).

/** A verdict of the taxonomy (the layer is derived by the runner from the outcome). */
export function verdict(outcome, detail, extra = {}) {
  return { verdict: { outcome, ...extra, detail: String(detail).slice(0, 300) } };
}

/** The mapping has no row for this record: the cell is `error` (kind adapter-gap), never "no conclusion". */
export function gap(stack, call) {
  return { gap: `${stack} has no mapping for ${describeCall(call)}` };
}

/**
 * Whether the thrown record is (an instance of) one of `names`: the library's exported class as an
 * application's `instanceof` sees it, else the constructor's or the error's own name (a library
 * that exports no class for it, e.g. a ZodError of its schema library).
 */
export function isA(thrown, ...names) {
  if (!thrown) return false;
  return names.some((name) => thrown.instanceOf?.includes(name) || thrown.class === name || thrown.name === name);
}

/** The record and its causes, outermost first (observe-call keeps three levels). */
export function causeChain(thrown) {
  const chain = [];
  for (let current = thrown; current && chain.length < 8; current = current.cause) chain.push(current);
  return chain;
}

/**
 * The library gave up on its own (its timer, a closed connection, a failed fetch, the host's
 * per-request abort it honoured): whether a 2xx status came back for this call's last tools/call
 * decides between "nothing at all" and "a 2xx stream that never delivered the response".
 */
export function lostVerdict(context, detail) {
  const status = context.toolCallStatuses?.at(-1);
  if (status !== undefined && status >= 200 && status <= 299) return verdict('STREAM_INCOMPLETE', `after HTTP ${status}: ${detail}`);
  return verdict('NO_RESPONSE', detail);
}

/** Whether the server itself sent this JSON-RPC error code in answer to the call's tools/call. */
export function isPeerCode(context, code) {
  return typeof code === 'number' && (context.peerErrorCodes ?? []).includes(code);
}

/** "Class [code] (status 403): message", the library's own words for details and gap reasons. */
export function describeThrown(thrown) {
  if (!thrown) return 'nothing';
  const label = thrown.class === thrown.name || !thrown.name ? thrown.class : `${thrown.class} (${thrown.name})`;
  const code = thrown.code === undefined ? '' : ` ${JSON.stringify(thrown.code)}`;
  const status = thrown.status === undefined ? '' : ` (status ${thrown.status})`;
  return `${label}${code}${status}: ${String(thrown.message).slice(0, 400)}`;
}

/** The record of one call in words: what it threw (and its causes) or returned. */
export function describeCall(call) {
  if (call && 'threw' in call) {
    const causes = causeChain(call.threw).slice(1).map((cause) => ` ← cause ${describeThrown(cause)}`).join('');
    return `a thrown ${describeThrown(call.threw)}${causes}`;
  }
  if (call && 'returned' in call) return `a returned value ${JSON.stringify(call.returned)?.slice(0, 400)}`;
  if (call && 'hung' in call) return `a call that never settled (${call.hung.afterMs} ms)`;
  return `an unreadable observation ${JSON.stringify(call)?.slice(0, 200)}`;
}

/** Whether a Zod issue list (Zod 3 or 4, as `issues` or parsed from a message) is the JSON-RPC envelope's. */
export function isEnvelopeIssueList(issues) {
  // Every stack here (the v1 and v2 SDKs, ai-sdk) parses an incoming message with one union of the
  // four JSON-RPC message kinds (request, notification, result response, error response) before
  // any result schema: its failure is a single `invalid_union` issue at the message's root with
  // one branch per kind (Zod 4 `errors`, Zod 3 `unionErrors`). A result schema fails inside the
  // result (`content`, `isError`, …) or, where it is a union itself (ai-sdk's CallToolResultSchema:
  // two branches), with another number of branches.
  if (!Array.isArray(issues) || issues.length !== 1) return false;
  const issue = issues[0];
  if (issue === null || typeof issue !== 'object' || issue.code !== 'invalid_union' || !Array.isArray(issue.path) || issue.path.length > 0) return false;
  const branches = Array.isArray(issue.errors) ? issue.errors : issue.unionErrors;
  return Array.isArray(branches) && branches.length === JSON_RPC_MESSAGE_KINDS;
}

const JSON_RPC_MESSAGE_KINDS = 4;
