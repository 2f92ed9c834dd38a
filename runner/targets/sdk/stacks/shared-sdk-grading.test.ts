// One library behaviour, one grading: a stack built on an official SDK that surfaces the SDK's own
// error (or result) unchanged is graded as the SDK target of that version is. Each pair runs the
// same focused cases through both, one worker each, and compares outcome and layer per cell
// (langchain keeps no HTTP status, so statuses and codes are left to the stacks' own tests).
// Cases where a stack converts the result itself (openai-agents' content-only return, mastra's
// structuredContent or MastraError, langchain's ToolException for isError, agents' Error for
// isError, the Inspector CLI's exit status) are not shared behaviour.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCases } from '../../../cases/load-cases.js';
import type { LoadedCase } from '../../../cases/case-types.js';
import { runMatrix } from '../../../run/run-matrix.js';
import type { Cell, ProtocolVersion, Target } from '../../../vocabulary/types.js';
import { ANSWERED_AT_ONCE_TIMEOUT_MS } from '../../../../test/answered-at-once.js';
import { createSdkTarget } from '../sdk-target.js';

/** The SDK's own errors and results, which each stack hands the host unchanged (answered at once). */
const SHARED_CASES = [
  'baseline',
  'result-not-object',
  'result-meta-not-object',
  'content-not-array',
  'malformed-json',
  'http-200-text-html',
  'http-503-empty-body',
  'http-403-insufficient-scope',
  'jsonrpc-invalid-params',
  'error-32001-from-peer',
];
/** The 2026-07-28 multi-round cases: an adapter's own deadline cut the v2 client's loop short (issue 26). */
const MRTR_CASES = ['mrtr-loop', 'result-type-in-2025-result'];

let cases: LoadedCase[];
beforeAll(async () => {
  const all = await loadCases();
  cases = all.filter((loaded) => [...SHARED_CASES, ...MRTR_CASES].includes(loaded.case.id));
}, 60_000);

type Graded = Record<string, string>;

function grade(cells: Cell[], target: string): Graded {
  const graded: Graded = {};
  for (const cell of cells.filter((candidate) => candidate.target === target && candidate.status !== 'skip')) {
    const verdict = cell.actual[0];
    graded[`${cell.case} ${cell.protocolVersion}`] = cell.status === 'error' ? `error: ${cell.reason ?? ''}` : verdict ? `${verdict.outcome} (${verdict.layer})` : 'no conclusion';
  }
  return graded;
}

async function runPair(sdk: Target, stack: Target, versions: ProtocolVersion[], caseIds: string[]): Promise<{ sdk: Graded; stack: Graded }> {
  const picked = cases.filter((loaded) => caseIds.includes(loaded.case.id));
  const result = await runMatrix({ cases: picked, targets: [sdk, stack], mode: 'http', timeoutMs: ANSWERED_AT_ONCE_TIMEOUT_MS, concurrency: 4, versions });
  return { sdk: grade(result.cells, sdk.info.name), stack: grade(result.cells, stack.info.name) };
}

describe.each([
  { sdk: 'ts-sdk@1.32.2', stack: 'langchain@1.1.4', versions: ['2025-11-25'] as ProtocolVersion[], mrtr: false },
  { sdk: 'ts-client@2.4.0', stack: 'openai-agents@0.20.0', versions: ['2025-11-25', '2026-07-28'] as ProtocolVersion[], mrtr: true },
  { sdk: 'ts-client@2.0.0', stack: 'mastra@2.0.0', versions: ['2025-11-25', '2026-07-28'] as ProtocolVersion[], mrtr: true },
  // agents 0.32.0 pins @modelcontextprotocol/client 2.4.0 as its peer; its host runs in workerd.
  { sdk: 'ts-client@2.4.0', stack: 'cloudflare-agents@0.32.0', versions: ['2025-11-25', '2026-07-28'] as ProtocolVersion[], mrtr: true },
  // The Inspector 2.12.0 bundles @modelcontextprotocol/client 2.3.1, which is not pinned: 2.4.0 stands
  // for it (the sweep of every ts-client 2.x found no cell that changed, docs/targets.md § Real SDK clients).
  // 2025-11-25 only: at 2026-07-28 the CLI calls tools through @modelcontextprotocol/ext-tasks instead.
  { sdk: 'ts-client@2.4.0', stack: 'inspector-cli@2.12.0', versions: ['2025-11-25'] as ProtocolVersion[], mrtr: false },
])('$stack grades what $sdk (the SDK under it) does as $sdk does', ({ sdk, stack, versions, mrtr }) => {
  const targets: Target[] = [];
  beforeAll(async () => {
    targets.push(await createSdkTarget(sdk, { versions }), await createSdkTarget(stack, { versions }));
  }, 120_000);
  afterAll(() => Promise.all(targets.map((target) => target.close?.())));

  it('gives every shared case the same outcome and layer, and never an adapter gap', async () => {
    const caseIds = mrtr ? [...SHARED_CASES, ...MRTR_CASES] : SHARED_CASES;
    const graded = await runPair(targets[0]!, targets[1]!, versions, caseIds);
    expect(Object.keys(graded.stack).length).toBeGreaterThanOrEqual(SHARED_CASES.length);
    expect(Object.values(graded.stack).filter((text) => text.startsWith('error'))).toEqual([]);
    expect(graded.stack).toEqual(graded.sdk);
  }, 180_000);
});
