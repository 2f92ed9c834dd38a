// The client-stack targets end to end: each bundled stack's worker starts, says which protocol
// versions it speaks, and gives its verdicts on a few cells through the real runner. Few cells,
// chosen where the stacks differ from each other or from the official SDK (recorded in the README).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCases } from '../../../cases/load-cases.js';
import type { LoadedCase } from '../../../cases/case-types.js';
import { runMatrix } from '../../../run/run-matrix.js';
import type { Cell, ProtocolVersion } from '../../../vocabulary/types.js';
import { ANSWERED_AT_ONCE_TIMEOUT_MS } from '../../../../test/answered-at-once.js';
import { resolveTarget } from '../../resolve-target.js';
import { createSdkTarget } from '../sdk-target.js';
import { declareLoadedByPath } from '../../../../test/loaded-by-path.js';

// The worker process, started by path, and the stack adapter it loads by a computed URL.
declareLoadedByPath(
  () => import('../worker.mjs' as string),
  () => import('./ai-sdk.mjs' as string),
  () => import('./openai-agents.mjs' as string),
  () => import('./langchain.mjs' as string),
  () => import('./mastra.mjs' as string),
  () => import('./mcp-remote.mjs' as string),
  () => import('./inspector-cli.mjs' as string),
  () => import('./cli-wire-preload.mjs' as string),
  () => import('./cloudflare-agents.mjs' as string),
  () => import('./cloudflare-agents-host.mjs' as string),
);

const CASE_IDS = ['baseline', 'tool-is-error', 'http-503-empty-body', 'http-500-jsonrpc-error-body', 'malformed-json'];

// The versions the verdict tests assert on: the cells of the other two were run and never looked at.
const ASSERTED_VERSIONS: ProtocolVersion[] = ['2025-11-25', '2026-07-28'];

let cases: LoadedCase[];
let resetCase: LoadedCase[];
let invalidParamsCase: LoadedCase[];

beforeAll(async () => {
  const all = await loadCases();
  cases = all.filter((loaded) => CASE_IDS.includes(loaded.case.id));
  resetCase = all.filter((loaded) => loaded.case.id === 'no-response-reset');
  invalidParamsCase = all.filter((loaded) => loaded.case.id === 'jsonrpc-invalid-params');
}, 60_000); // the whole table is read and validated; seconds on a loaded machine, as in sdk-target.test.ts

function summarise(cells: Cell[]): Record<string, string> {
  return Object.fromEntries(
    cells.map((cell) => [
      `${cell.case} ${cell.protocolVersion}`,
      cell.status === 'skip' ? `skip: ${cell.reason}` : cell.status === 'error' ? `error: ${cell.reason}` : cell.actual.map((v) => (v ? [v.outcome, v.status ?? v.code].filter((x) => x !== undefined).join(' ') : 'null')).join(', '),
    ]),
  );
}

describe('ai-sdk@2.0.99 (@ai-sdk/mcp)', () => {
  let target: Awaited<ReturnType<typeof createSdkTarget>>;
  beforeAll(async () => {
    // Through --target's resolver with the run's versions, as `run --version` resolves it: only those are probed.
    target = (await resolveTarget('ai-sdk@2.0.99', { cwd: process.cwd(), versions: ASSERTED_VERSIONS })) as typeof target;
  }, 60_000);
  afterAll(() => target?.close?.());

  it('probes the versions it speaks and names its stack', () => {
    expect(target.skipReason?.('2025-11-25')).toBeUndefined();
    expect(target.skipReason?.('2026-07-28')).toBeUndefined();
    expect(target.skipReason?.('2025-06-18')).toBe('ai-sdk@2.0.99: 2025-06-18 was not probed (the run asked only for 2025-11-25, 2026-07-28)');
    expect(target.info).toMatchObject({ name: 'ai-sdk@2.0.99', kind: 'client', version: '2.0.99', stack: 'Vercel AI SDK' });
  });

  it('gives its own verdicts: a JSON-RPC error body on HTTP 500 is read as the JSON-RPC error (the status is lost)', async () => {
    const result = await runMatrix({ cases, targets: [target], mode: 'http', timeoutMs: ANSWERED_AT_ONCE_TIMEOUT_MS, concurrency: 4, versions: ASSERTED_VERSIONS });
    const got = summarise(result.cells);
    for (const version of ['2025-11-25', '2026-07-28']) {
      expect(got[`baseline ${version}`]).toBe('TOOL_SUCCESS');
      expect(got[`tool-is-error ${version}`]).toBe('TOOL_ERROR');
      expect(got[`http-503-empty-body ${version}`]).toBe('HTTP_ERROR 503');
      expect(got[`http-500-jsonrpc-error-body ${version}`]).toBe('JSONRPC_ERROR -32603');
      expect(got[`malformed-json ${version}`]).toBe('MALFORMED_JSON');
    }
  }, 120_000);
});

describe('openai-agents@0.20.0 (@openai/agents)', () => {
  let target: Awaited<ReturnType<typeof createSdkTarget>>;
  beforeAll(async () => {
    target = await createSdkTarget('openai-agents@0.20.0', { versions: ASSERTED_VERSIONS });
  }, 60_000);
  afterAll(() => target?.close?.());

  it('probes the versions it speaks and names its stack (the official v2 client underneath)', () => {
    expect(target.skipReason?.('2025-11-25')).toBeUndefined();
    expect(target.skipReason?.('2026-07-28')).toBeUndefined();
    expect(target.info).toMatchObject({ name: 'openai-agents@0.20.0', kind: 'client', version: '0.20.0', stack: 'official TypeScript SDK' });
  });

  it('gives its own verdicts: callTool drops isError, so a tool error reaches the host as a success', async () => {
    const result = await runMatrix({ cases, targets: [target], mode: 'http', timeoutMs: ANSWERED_AT_ONCE_TIMEOUT_MS, concurrency: 4, versions: ASSERTED_VERSIONS });
    const got = summarise(result.cells);
    for (const version of ['2025-11-25', '2026-07-28']) {
      expect(got[`baseline ${version}`]).toBe('TOOL_SUCCESS');
      expect(got[`tool-is-error ${version}`]).toBe('TOOL_SUCCESS');
      expect(got[`http-503-empty-body ${version}`]).toBe('HTTP_ERROR 503');
      expect(got[`http-500-jsonrpc-error-body ${version}`]).toBe('HTTP_ERROR 500');
      expect(got[`malformed-json ${version}`]).toBe('MALFORMED_JSON');
    }
  }, 120_000);
});

describe('langchain@1.1.4 (@langchain/mcp-adapters)', () => {
  let target: Awaited<ReturnType<typeof createSdkTarget>>;
  beforeAll(async () => {
    target = await createSdkTarget('langchain@1.1.4', { versions: ASSERTED_VERSIONS });
  }, 90_000);
  afterAll(() => target?.close?.());

  it('probes the versions it speaks: 2026-07-28 is skip with what the probe saw', () => {
    expect(target.skipReason?.('2025-11-25')).toBeUndefined();
    expect(target.skipReason?.('2026-07-28')).toMatch(/^langchain@1\.1\.4 does not speak 2026-07-28: a call against a server speaking only 2026-07-28 failed \(connect failed/);
    expect(target.info).toMatchObject({ name: 'langchain@1.1.4', kind: 'client', version: '1.1.4', stack: 'official TypeScript SDK' });
  });

  it('gives its own verdicts: its ToolException keeps no HTTP status', async () => {
    const result = await runMatrix({ cases, targets: [target], mode: 'http', timeoutMs: ANSWERED_AT_ONCE_TIMEOUT_MS, concurrency: 4, versions: ASSERTED_VERSIONS });
    const got = summarise(result.cells);
    expect(got['baseline 2025-11-25']).toBe('TOOL_SUCCESS');
    expect(got['tool-is-error 2025-11-25']).toBe('TOOL_ERROR');
    expect(got['http-503-empty-body 2025-11-25']).toBe('HTTP_ERROR');
    expect(got['malformed-json 2025-11-25']).toBe('MALFORMED_JSON');
    expect(got['baseline 2026-07-28']).toMatch(/^skip: langchain@1\.1\.4 does not speak 2026-07-28/);
  }, 120_000);
});

describe('mastra@2.0.0 (@mastra/mcp)', () => {
  let target: Awaited<ReturnType<typeof createSdkTarget>>;
  beforeAll(async () => {
    target = await createSdkTarget('mastra@2.0.0');
  }, 90_000);
  afterAll(() => target?.close?.());

  it('probes the versions it speaks (all four), names its stack (the official v2 client underneath), and is not in the default run', async () => {
    for (const version of ['2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'] as const) expect(target.skipReason?.(version)).toBeUndefined();
    expect(target.info).toMatchObject({ name: 'mastra@2.0.0', kind: 'client', version: '2.0.0', stack: 'official TypeScript SDK' });
    expect(target.cpuBoundCells).toBe(true);
    const { DEFAULT_TARGETS } = await import('../../resolve-target.js');
    expect(DEFAULT_TARGETS.filter((spec) => spec.startsWith('mastra@'))).toEqual([]);
  });

  it('gives its own verdicts: a tool error thrown as MastraError is TOOL_ERROR; a reset connection is retried once', async () => {
    const picked = cases.filter((loaded) => ['baseline', 'tool-is-error', 'http-503-empty-body', 'malformed-json'].includes(loaded.case.id));
    const result = await runMatrix({ cases: [...picked, ...resetCase], targets: [target], mode: 'http', timeoutMs: ANSWERED_AT_ONCE_TIMEOUT_MS, concurrency: 4, versions: ['2025-11-25', '2026-07-28'] });
    const got = summarise(result.cells);
    for (const version of ['2025-11-25', '2026-07-28']) {
      expect(got[`baseline ${version}`]).toBe('TOOL_SUCCESS');
      expect(got[`tool-is-error ${version}`]).toBe('TOOL_ERROR');
      expect(got[`http-503-empty-body ${version}`]).toBe('HTTP_ERROR 503');
      expect(got[`malformed-json ${version}`]).toBe('MALFORMED_JSON');
      expect(got[`no-response-reset ${version}`]).toBe('NO_RESPONSE');
      // Mastra reconnects after "fetch failed" and sends the same tools/call again.
      const cell = result.cells.find((candidate) => candidate.case === 'no-response-reset' && candidate.protocolVersion === version);
      const toolCalls = cell?.recording?.exchanges.filter((exchange) => exchange.request.body.includes('"tools/call"')) ?? [];
      expect(toolCalls).toHaveLength(2);
      // The library counted both sends, and the second is an unsafe retry at MUST whatever the outcome.
      expect(cell?.observed?.toolCallsSent).toBe(2);
      expect(cell?.checks.find((check) => check.id === 'wire.no-unsafe-retry')).toMatchObject({ level: 'MUST', passed: false, consequence: 'unsafe-retry' });
      expect(cell?.status).toBe('fail');
    }
  }, 120_000);
});

describe('mcp-remote@0.15.1 (stdio bridge, one process per cell)', () => {
  let target: Awaited<ReturnType<typeof createSdkTarget>>;
  beforeAll(async () => {
    // A bridge process per probe: only the versions the tests ask about.
    target = await createSdkTarget('mcp-remote@0.15.1', { versions: ASSERTED_VERSIONS });
  }, 90_000);
  afterAll(() => target?.close?.());

  it('probes the versions it speaks, asks the runner for start-up time per cell, and is not in the default run', async () => {
    expect(target.skipReason?.('2025-11-25')).toBeUndefined();
    expect(target.skipReason?.('2026-07-28')).toMatch(/^mcp-remote@0\.15\.1 does not speak 2026-07-28: a call against a server speaking only 2026-07-28 failed/);
    expect(target.skipReason?.('2025-03-26')).toMatch(/^mcp-remote@0\.15\.1: 2025-03-26 was not probed/);
    expect(target.getCellLimitMs?.({ timeoutMs: 2000, case: cases[0]!.case })).toBeGreaterThan(20_000);
    const { DEFAULT_TARGETS } = await import('../../resolve-target.js');
    expect(DEFAULT_TARGETS.filter((spec) => spec.startsWith('mcp-remote@'))).toEqual([]);
  });

  it('turns an HTTP failure into its own JSON-RPC error -32001 on the host side', async () => {
    const picked = cases.filter((loaded) => ['tool-is-error', 'http-503-empty-body'].includes(loaded.case.id));
    const result = await runMatrix({ cases: picked, targets: [target], mode: 'http', timeoutMs: ANSWERED_AT_ONCE_TIMEOUT_MS, concurrency: 2, versions: ['2025-11-25'] });
    const got = summarise(result.cells);
    expect(got['tool-is-error 2025-11-25']).toBe('TOOL_ERROR');
    expect(got['http-503-empty-body 2025-11-25']).toBe('JSONRPC_ERROR -32001');
  }, 180_000);
});

describe('cloudflare-agents@0.32.0 (agents, its MCP client in the Workers runtime)', () => {
  let target: Awaited<ReturnType<typeof createSdkTarget>>;
  beforeAll(async () => {
    // One workerd for the version, started by the worker; only the versions the tests ask about are probed.
    target = await createSdkTarget('cloudflare-agents@0.32.0', { versions: ASSERTED_VERSIONS });
  }, 120_000);
  afterAll(() => target?.close?.());

  it('probes the versions it speaks, names its stack (the official v2 client underneath), and is not in the default run', async () => {
    expect(target.skipReason?.('2025-11-25')).toBeUndefined();
    expect(target.skipReason?.('2026-07-28')).toBeUndefined();
    expect(target.info).toMatchObject({ name: 'cloudflare-agents@0.32.0', kind: 'client', version: '0.32.0', stack: 'official TypeScript SDK' });
    expect(target.startsProcessPerCell).toBe(false);
    const { DEFAULT_TARGETS } = await import('../../resolve-target.js');
    expect(DEFAULT_TARGETS.filter((spec) => spec.startsWith('cloudflare-agents@'))).toEqual([]);
  });

  it("gives its own verdicts: getAITools' execute throws the tool's error text as a plain Error (TOOL_ERROR); the v2 client's errors pass through", async () => {
    const result = await runMatrix({ cases, targets: [target], mode: 'http', timeoutMs: ANSWERED_AT_ONCE_TIMEOUT_MS, concurrency: 4, versions: ASSERTED_VERSIONS });
    const got = summarise(result.cells);
    for (const version of ['2025-11-25', '2026-07-28']) {
      expect(got[`baseline ${version}`]).toBe('TOOL_SUCCESS');
      expect(got[`tool-is-error ${version}`]).toBe('TOOL_ERROR');
      expect(got[`http-503-empty-body ${version}`]).toBe('HTTP_ERROR 503');
      expect(got[`http-500-jsonrpc-error-body ${version}`]).toBe('HTTP_ERROR 500');
      expect(got[`malformed-json ${version}`]).toBe('MALFORMED_JSON');
    }
    const toolError = result.cells.find((cell) => cell.case === 'tool-is-error' && cell.protocolVersion === '2025-11-25');
    expect(toolError?.observed?.calls[0]).toEqual({ threw: { class: 'Error', name: 'Error', message: 'failed' } });
  }, 120_000);
});

describe('inspector-cli@2.12.0 (the Inspector CLI, one process per call)', () => {
  let target: Awaited<ReturnType<typeof createSdkTarget>>;
  beforeAll(async () => {
    // A CLI process per probe: only the version the tests ask about.
    target = await createSdkTarget('inspector-cli@2.12.0', { versions: ['2025-11-25'] });
  }, 120_000);
  afterAll(() => target?.close?.());

  it('probes the versions it speaks, asks the runner for start-up time per cell, and is not in the default run', async () => {
    expect(target.skipReason?.('2025-11-25')).toBeUndefined();
    expect(target.info).toMatchObject({ name: 'inspector-cli@2.12.0', kind: 'client', version: '2.12.0', stack: 'official TypeScript SDK' });
    expect(target.startsProcessPerCell).toBe(true);
    const { DEFAULT_TARGETS } = await import('../../resolve-target.js');
    expect(DEFAULT_TARGETS.filter((spec) => spec.startsWith('inspector-cli@'))).toEqual([]);
  });

  it('prints the result and exits 5 for a tool error, prints an HTTP status, and drops a JSON-RPC error\'s code', async () => {
    const picked = [...cases.filter((loaded) => ['tool-is-error', 'http-503-empty-body'].includes(loaded.case.id)), ...invalidParamsCase];
    const result = await runMatrix({ cases: picked, targets: [target], mode: 'http', timeoutMs: ANSWERED_AT_ONCE_TIMEOUT_MS, concurrency: 3, versions: ['2025-11-25'] });
    const got = summarise(result.cells);
    expect(got['tool-is-error 2025-11-25']).toBe('TOOL_ERROR');
    expect(got['http-503-empty-body 2025-11-25']).toBe('HTTP_ERROR 503');
    expect(got['jsonrpc-invalid-params 2025-11-25']).toBe('JSONRPC_ERROR');
    const toolError = result.cells.find((cell) => cell.case === 'tool-is-error');
    expect(toolError?.observed).toMatchObject({ calls: [{ returned: { exit: 5, stderr: `{"error":{"code":"tool_is_error","message":"Tool 'synthetic_tool' returned isError:true."}}\n` } }], toolCallsSent: 1 });
  }, 180_000);
});
