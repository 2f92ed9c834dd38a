// A version's counts and badge: failing cells by their worst kind, worst first; the badge says its
// unsafe cells (false successes and unsafe retries) before anything else.
import { describe, expect, it } from 'vitest';
import type { AtlasCell, AtlasVersion } from '../../runner/atlas/atlas-types.js';
import { makeVersionBadge, tallyVersion } from './tally-version.js';

const cell = (status: AtlasCell['status'], kind?: string): AtlasCell => ({ case: `c-${status}-${kind ?? ''}`, protocolVersion: '2025-11-25', status, ...(kind ? { kind } : {}) }) as AtlasCell;
const version = (cells: AtlasCell[], state: AtlasVersion['state'] = 'measured') => ({ state, cells });

describe('tallyVersion', () => {
  it('counts cells per status and failing cells per kind, worst first, and the unsafe ones', () => {
    const tally = tallyVersion([cell('pass'), cell('fail', 'unsafe-retry'), cell('fail', 'false-success'), cell('fail', 'false-success'), cell('non_strict', 'imprecise'), cell('error', 'adapter-gap'), cell('skip')]);
    expect(tally).toMatchObject({ pass: 1, fail: 3, non_strict: 1, error: 1, skip: 1, worst: 'false-success', unsafe: 3 });
    expect(tally.kinds.map((k) => k.words)).toEqual(['2 false successes', '1 unsafe retry', '1 imprecise', '1 adapter gap']);
  });

  it('reads a kind it does not know (an atlas of another version) as other', () => {
    expect(tallyVersion([cell('fail', 'something-new')]).kinds).toEqual([{ kind: 'other', count: 1, words: '1 other' }]);
  });
});

describe('makeVersionBadge', () => {
  it.each([
    [[cell('fail', 'unsafe-retry'), cell('fail', 'false-failure')], '1 unsafe', 'red'],
    [[cell('fail', 'false-failure'), cell('pass')], '1 failing', 'orange'],
    [[cell('non_strict', 'imprecise'), cell('pass')], '1 non-strict', 'yellow'],
    [[cell('pass'), cell('skip')], 'all pass', 'brightgreen'],
    [[cell('pass'), cell('error', 'timeout')], '1 not measured', 'lightgrey'],
    [[cell('fail', 'false-success'), cell('error', 'starved')], '1 unsafe · 1 not measured', 'red'],
  ])('says %#: %s', (cells, message, color) => {
    expect(makeVersionBadge(version(cells))).toEqual({ schemaVersion: 1, label: 'MCP errors', message, color });
  });

  it('says when a version measured nothing', () => {
    expect(makeVersionBadge(version([], 'speaks-none')).message).toBe('no Streamable HTTP version');
    expect(makeVersionBadge(version([], 'not-started')).message).toBe('not measured');
  });
});
