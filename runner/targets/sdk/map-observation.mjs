// The mapping contract (docs/adapter-observation.md): what a client library did with one call —
// its observation record (observe-call.mjs) — and the wire context of that call, onto the outcome
// taxonomy. Pure: a live cell in a worker and a stored observation of the truth corpus
// (test/stack-truth/) go through the same function. Plain ESM, shipped as-is.
//
//   mapObservation(kind, call, context) → { verdict } | { gap } | { none }
//
// `kind` is the target kind (`ts-sdk`, `ts-client`, `ai-sdk`, `openai-agents`, `langchain`,
// `mastra`, `mcp-remote`). `{ none }` is kept for what the library really did when it concluded
// nothing: it hung until the host's last-resort abort (`hostAborted`, `hung`), or it died. An
// observation a stack's table does not hold is `{ gap }`: the cell is `error` (adapter gap).
import { mapAiSdkObservation } from './stacks/map-ai-sdk-outcome.mjs';
import { mapLangchainObservation } from './stacks/map-langchain-outcome.mjs';
import { mapMastraObservation } from './stacks/map-mastra-outcome.mjs';
import { mapMcpRemoteObservation } from './stacks/map-mcp-remote-outcome.mjs';
import { mapOpenAiAgentsObservation } from './stacks/map-openai-agents-outcome.mjs';
import { mapSdkObservation } from './map-sdk-outcome.mjs';
import { describeCall, describeThrown } from './read-observation.mjs';

const MAPPERS = {
  'ts-sdk': (call, context) => mapSdkObservation(call, context, 'v1'),
  'ts-client': (call, context) => mapSdkObservation(call, context, 'v2'),
  'ai-sdk': mapAiSdkObservation,
  'openai-agents': mapOpenAiAgentsObservation,
  langchain: mapLangchainObservation,
  mastra: mapMastraObservation,
  'mcp-remote': mapMcpRemoteObservation,
};

/** The target kinds with a mapping. */
export const MAPPED_KINDS = Object.freeze(Object.keys(MAPPERS));

/**
 * What the library concluded about one call, in the taxonomy: `{ verdict }`; `{ none }` when it
 * concluded nothing (it hung until the host's last-resort abort, or died); `{ gap }` when the
 * record is not in the stack's table.
 */
export function mapObservation(kind, call, context) {
  if (call === null || typeof call !== 'object') return { gap: `${kind}: not an observation: ${JSON.stringify(call)}` };
  if ('hung' in call) return { none: `the call never settled, even ${call.hung?.afterMs} ms after the host's last-resort abort` };
  if (call.hostAborted === true) return { none: `the library hung until the host's last-resort abort, then threw ${describeThrown(call.threw)}` };
  if (!('threw' in call) && !('returned' in call)) return { gap: `${kind}: ${describeCall(call)}` };
  const mapper = MAPPERS[kind];
  if (!mapper) return { gap: `no mapping for target kind ${JSON.stringify(kind)}` };
  return mapper(call, { protocolVersion: context?.protocolVersion, toolCallStatuses: context?.toolCallStatuses ?? [], peerErrorCodes: context?.peerErrorCodes ?? [] });
}
