// A synthetic atlas index for the site's tests: stacks of versions whose cells are written as
// short strings ("pass", "fail:false-success:TOOL_SUCCESS", "skip"), so a test reads as a table.
import type { AtlasCell, AtlasIndex, AtlasStack, AtlasVersion } from '../runner/atlas/atlas-types.js';
import type { Consequence, Outcome, ProtocolVersion } from '../runner/vocabulary/types.js';

export const ATLAS_CASES = [
  { id: 'tool-is-error', title: 'Tool execution error (isError true)', layer: 'application', meaning: 'HTTP 200 with a CallToolResult whose isError is true.', sha256: '1'.repeat(64), versions: ['2025-11-25', '2026-07-28'] as ProtocolVersion[] },
  { id: 'malformed-json', title: 'Malformed JSON body on HTTP 200', layer: 'protocol', meaning: 'HTTP 200 with Content-Type application/json and the body `{unclosed`.', sha256: '2'.repeat(64), versions: ['2025-11-25', '2026-07-28'] as ProtocolVersion[] },
];

const EXPECTED: Record<string, Outcome> = { 'tool-is-error': 'TOOL_ERROR', 'malformed-json': 'MALFORMED_JSON' };

/** One cell from `status[:kind[:outcome]]`; a pass concludes the case's expected outcome. */
export function makeAtlasCell(caseId: string, protocolVersion: ProtocolVersion, text: string): AtlasCell {
  const [status, kind, outcome] = text.split(':') as [AtlasCell['status'], string | undefined, Outcome | undefined];
  const concluded = status === 'skip' || status === 'error' ? undefined : [{ outcome: outcome ?? EXPECTED[caseId] ?? 'TOOL_SUCCESS' }];
  const consequence = kind && kind !== 'adapter-gap' && kind !== 'timeout' ? [kind as Consequence] : undefined;
  return { case: caseId, protocolVersion, status, ...(concluded ? { actual: concluded } : {}), ...(kind ? { kind: kind as NonNullable<AtlasCell['kind']> } : {}), ...(consequence ? { consequences: consequence } : {}) };
}

/** A version whose cells are given per case as `[at 2025-11-25, at 2026-07-28]`. */
export function makeAtlasVersion(kind: string, version: string, cells: Record<string, [string, string]>, overrides: Partial<AtlasVersion> = {}): AtlasVersion {
  const list = Object.entries(cells).flatMap(([caseId, [a, b]]) => [makeAtlasCell(caseId, '2025-11-25', a), makeAtlasCell(caseId, '2026-07-28', b)]);
  const state = overrides.state ?? (list.every((c) => c.status === 'skip') ? 'speaks-none' : 'measured');
  return {
    version,
    spec: `${kind}@${version}`,
    state,
    speaks: state === 'measured' ? ['2025-11-25', '2026-07-28'] : [],
    measuredAt: '2026-12-01T10:00:00.000Z',
    reusedCells: 0,
    caseDigests: Object.fromEntries(ATLAS_CASES.map((c) => [c.id, c.sha256])),
    ...(state === 'not-started' ? {} : { path: `stacks/${kind}/${version}/` }),
    cells: state === 'not-started' ? [] : list,
    ...overrides,
  };
}

export function makeAtlasStack(kind: string, versions: AtlasVersion[], overrides: Partial<AtlasStack> = {}): AtlasStack {
  return { kind, packageName: `@example/${kind}`, implementation: 'official TypeScript SDK', coverage: { releases: 'minors', beyondEdge: [], pending: [] }, versions, ...overrides };
}

export function makeAtlasIndex(stacks: AtlasStack[], overrides: Partial<AtlasIndex> = {}): AtlasIndex {
  return {
    format: 'mcp-error-matrix/atlas@1',
    settings: { tool: { name: 'mcp-error-matrix', version: '0.1.0', fingerprint: 'f'.repeat(64) }, timeoutMs: 2000, mode: 'http', schemas: null },
    renderFingerprint: 'e'.repeat(64),
    startedAt: '2026-12-01T10:00:00.000Z',
    finishedAt: '2026-12-01T10:05:00.000Z',
    complete: true,
    protocolVersions: ['2025-11-25', '2026-07-28'],
    cases: ATLAS_CASES,
    stacks,
    node: 'v20.20.0',
    platform: 'linux',
    schemaInfo: null,
    ...overrides,
  };
}

/** Two stacks: ts-sdk 1.0.0 → 1.1.0 regresses malformed-json (a false success), 1.2.0 fixes it; ai-sdk one version. */
export function makeSampleAtlas(): AtlasIndex {
  return makeAtlasIndex([
    makeAtlasStack(
      'ts-sdk',
      [
        makeAtlasVersion('ts-sdk', '1.2.0', { 'tool-is-error': ['pass', 'pass'], 'malformed-json': ['pass', 'pass'] }),
        makeAtlasVersion('ts-sdk', '1.1.0', { 'tool-is-error': ['pass', 'pass'], 'malformed-json': ['fail:false-success:TOOL_SUCCESS', 'pass'] }),
        makeAtlasVersion('ts-sdk', '1.0.0', { 'tool-is-error': ['pass', 'skip'], 'malformed-json': ['pass', 'skip'] }),
        makeAtlasVersion('ts-sdk', '0.9.0', { 'tool-is-error': ['skip', 'skip'], 'malformed-json': ['skip', 'skip'] }, { reason: 'ts-sdk@0.9.0 does not speak 2025-11-25 (it supports 2024-11-05)' }),
      ],
      { coverage: { releases: 'minors', edge: '0.9.0', beyondEdge: ['0.8.0'], pending: [] } },
    ),
    makeAtlasStack('ai-sdk', [
      makeAtlasVersion('ai-sdk', '2.0.99', { 'tool-is-error': ['non_strict:imprecise:TOOL_ERROR', 'pass'], 'malformed-json': ['fail:unsafe-retry:NO_RESPONSE', 'error:adapter-gap'] }),
      makeAtlasVersion('ai-sdk', '1.0.102', {}, { state: 'not-started', reason: '@ai-sdk/mcp 1.0.102 exports no createMCPClient' }),
    ], { packageName: '@ai-sdk/mcp', implementation: 'Vercel AI SDK' }),
  ]);
}
