// `--since`: what changed between two atlases, as the Markdown a release note takes: new releases
// with their changes against the release before, cells of releases both measured that now answer
// otherwise, releases gone, and case-table edits.
import { describe, expect, it } from 'vitest';
import { renderAtlasChanges } from '../../reports/atlas/render-atlas-changes.js';
import { ATLAS_CASES, makeAtlasVersion, makeSampleAtlas } from '../../test/make-atlas-index.js';
import { diffAtlases, diffCells } from './diff-atlases.js';

const titles = new Map(ATLAS_CASES.map((item) => [item.id, item.title]));

function makePrevious() {
  const current = makeSampleAtlas();
  const [sdk, ai] = current.stacks;
  return {
    ...current,
    finishedAt: '2026-11-01T09:00:00.000Z',
    cases: [{ ...ATLAS_CASES[0]!, sha256: '9'.repeat(64) }, ATLAS_CASES[1]!, { ...ATLAS_CASES[1]!, id: 'retired-case' }],
    stacks: [
      { ...sdk!, versions: [...sdk!.versions.slice(1), makeAtlasVersion('ts-sdk', '0.8.0', { 'tool-is-error': ['pass', 'skip'] })] },
      { ...ai!, versions: [makeAtlasVersion('ai-sdk', '2.0.99', { 'tool-is-error': ['pass', 'pass'], 'malformed-json': ['fail:unsafe-retry:NO_RESPONSE', 'error:adapter-gap'] })] },
    ],
  };
}

describe('diffAtlases and renderAtlasChanges', () => {
  it('finds the new releases, the cells measured again that answer otherwise, the releases gone and the case edits', () => {
    const diff = diffAtlases(makePrevious(), makeSampleAtlas());
    expect(diff.cases).toEqual({ added: [], changed: ['tool-is-error'], removed: ['retired-case'] });
    const [sdk, ai] = diff.stacks;
    expect(sdk!.newReleases.map((r) => [r.version.version, r.previous, r.changes.map((c) => `${c.change} ${c.caseId}`)])).toEqual([['1.2.0', '1.1.0', ['fix malformed-json']]]);
    expect(sdk!.gone).toEqual(['0.8.0']);
    expect(ai!.remeasured).toEqual([{ version: '2.0.99', differences: [{ caseId: 'tool-is-error', protocolVersion: '2025-11-25', before: 'TOOL_ERROR', now: 'TOOL_ERROR', statusBefore: 'pass', statusNow: 'non_strict' }] }]);
    // ai-sdk 1.0.102 could not start this time: it is neither new nor gone.
    expect(ai!.newReleases).toEqual([]);
  });

  it('counts no difference to or from a cell that was not measured (error)', () => {
    const before = makeAtlasVersion('ai-sdk', '2.0.99', { 'tool-is-error': ['pass', 'error:starved'] }).cells;
    const now = makeAtlasVersion('ai-sdk', '2.0.99', { 'tool-is-error': ['error:starved', 'pass'] }).cells;
    expect(diffCells(before, now)).toEqual([]);
  });

  it('writes Markdown ready for release notes', () => {
    expect(renderAtlasChanges(diffAtlases(makePrevious(), makeSampleAtlas()), titles)).toBe(
      [
        '## MCP client error handling: what changed since the atlas of 2026-11-01',
        '',
        '1 new release across 1 stacks; 1 cell of releases measured before now answers otherwise. (mcp-error-matrix 0.1.0; the previous atlas: 0.1.0, finished 2026-11-01T09:00:00.000Z.)',
        '',
        'Case table: changed `tool-is-error`; removed `retired-case` (changed cases were measured again for every release).',
        '',
        '### ts-sdk (`@example/ts-sdk`)',
        '',
        '- **1.2.0** (new): all pass; against 1.1.0: 1 fix:',
        '  - ▲ fix `malformed-json` at 2025-11-25: `TOOL_SUCCESS` → `MALFORMED_JSON` (false-success) — Malformed JSON body on HTTP 200',
        '- No longer in the atlas: 0.8.0.',
        '',
        '### ai-sdk (`@ai-sdk/mcp`)',
        '',
        '- **2.0.99** (measured again): 1 cell answers otherwise:',
        '  - `tool-is-error` at 2025-11-25: `TOOL_ERROR` → `TOOL_ERROR` (pass → non_strict) — Tool execution error (isError true)',
        '',
      ].join('\n'),
    );
  });

  it('says so when nothing changed', () => {
    expect(renderAtlasChanges(diffAtlases(makeSampleAtlas(), makeSampleAtlas()), titles)).toContain('Nothing changed: no new release, and every cell measured again answers as before.');
  });
});
