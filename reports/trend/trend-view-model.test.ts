// The version trend (issue 14 §3): rows that change between versions, marked fix / regression /
// other outcome by consequence, per-version counts, and summary.md's list of changes per version.
import { describe, expect, it } from 'vitest';
import { makeCell, makeRunResult } from '../../test/make-run-result.js';
import { makeTrendRunResult } from '../../test/make-trend-result.js';
import { renderMarkdown } from '../formats/index.js';
import { renderHtml } from '../html/index.js';
import { buildTrendFamilies } from './trend-view-model.js';

describe('buildTrendFamilies', () => {
  const result = makeTrendRunResult();
  const [family, ...others] = buildTrendFamilies(result.cells, result.targets);

  it('makes one trend per family of two or more versions, versions in semver order', () => {
    expect(others).toEqual([]);
    expect(family!.family).toBe('ts-sdk');
    expect(family!.versions.map((v) => v.version)).toEqual(['1.23.1', '1.24.3', '1.25.3']);
    const reversed = { ...result, targets: [...result.targets].reverse(), cells: [...result.cells].reverse() };
    expect(buildTrendFamilies(reversed.cells, reversed.targets)[0]!.versions.map((v) => v.version)).toEqual(['1.23.1', '1.24.3', '1.25.3']);
  });

  it('lists the rows that change with the actual outcome per version, marked by kind and consequence', () => {
    const rows = Object.fromEntries(family!.rows.map((row) => [row.caseId, row.cells.map((c) => [c.outcome, c.change ?? '', c.consequence ?? ''].join('|'))]));
    expect(rows).toEqual({
      'http-503': ['none||', 'HTTP_ERROR 503|fix|', 'HTTP_ERROR 503||'],
      'jsonrpc-error': ['TOOL_ERROR||false-failure', 'TOOL_ERROR||false-failure', 'NO_RESPONSE|changed|false-failure'],
      'result-missing-content': ['INVALID_TOOL_RESULT||', 'INVALID_TOOL_RESULT||', 'TOOL_SUCCESS|regression|false-success'],
      'skipped-middle': ['none||', 'skip||', 'TOOL_SUCCESS|fix|'],
      'worker-timeout': ['TOOL_SUCCESS||', 'error|regression|', 'TOOL_SUCCESS|fix|'],
    });
    expect(family!.steadyRows).toBe(1); // baseline
  });

  it('counts per version: passed, failed, false successes, skipped, and its changes by old → new outcome', () => {
    const [first, second, third] = family!.versions;
    expect(first).toMatchObject({ passed: 3, failed: 3, falseSuccesses: 0, skipped: 0, errors: 0, fixed: 0, regressed: 0, changed: 0 });
    expect(second).toMatchObject({ passed: 3, failed: 1, skipped: 1, errors: 1, fixed: 1, regressed: 1 });
    expect(second!.transitions).toEqual([
      { change: 'fix', from: 'none', to: 'HTTP_ERROR 503', count: 1, rows: [{ caseId: 'http-503', protocolVersion: '2025-11-25' }] },
      { change: 'regression', from: 'TOOL_SUCCESS', to: 'error', count: 1, rows: [{ caseId: 'worker-timeout', protocolVersion: '2025-11-25' }] },
    ]);
    expect(third).toMatchObject({ passed: 4, failed: 2, falseSuccesses: 1, fixed: 2, regressed: 1, changed: 1 });
    expect(third!.transitions).toContainEqual({ change: 'regression', from: 'INVALID_TOOL_RESULT', to: 'TOOL_SUCCESS', count: 1, consequence: 'false-success', rows: [{ caseId: 'result-missing-content', protocolVersion: '2025-11-25' }] });
  });

  it('has no trend for a run without two versions of a family', () => {
    const plain = makeRunResult();
    expect(buildTrendFamilies(plain.cells, plain.targets)).toEqual([]);
    const one = [makeCell({ target: 'ts-sdk@1.32.2' }), makeCell({ target: 'ts-client@2.4.0' })];
    expect(buildTrendFamilies(one, [])).toEqual([]);
  });
});

describe('trend rules', () => {
  const familyOf = (cells: ReturnType<typeof makeCell>[]) => buildTrendFamilies(cells, [])[0]!;

  it('orders a family\'s versions by semver as npm does (1.9 < 1.10 < 1.10.1-beta < 1.10.1), whatever order the run lists them in', () => {
    const names = ['ts-sdk@1.10.1', 'ts-sdk@1.9', 'ts-sdk@1.10.1-beta', 'ts-sdk@1.10'];
    const family = familyOf(names.map((target) => makeCell({ target })));
    expect(family.versions.map((v) => v.version)).toEqual(['1.9', '1.10', '1.10.1-beta', '1.10.1']);
    // The first version that changed is the one after the last that did not: a regression at 1.10 only.
    const cells = ['1.9', '1.10', '1.10.1-beta', '1.10.1'].map((version, i) => makeCell({ target: `ts-sdk@${version}`, status: i === 0 ? 'pass' : 'fail' }));
    const changes = familyOf(cells.reverse()).versions.map((v) => [v.version, v.regressed, v.fixed]);
    expect(changes).toEqual([['1.9', 0, 0], ['1.10', 1, 0], ['1.10.1-beta', 0, 0], ['1.10.1', 0, 0]]);
  });

  it('ranks error with fail: pass → error is a regression and error → pass a fix', () => {
    const statuses = ['pass', 'error', 'pass'] as const;
    const family = familyOf(statuses.map((status, i) => makeCell({ target: `ts-sdk@1.${i}.0`, status })));
    expect(family.versions.map((v) => [v.regressed, v.fixed])).toEqual([[0, 0], [1, 0], [0, 1]]);
    expect(family.rows[0]!.cells.map((c) => c.change)).toEqual([undefined, 'regression', 'fix']);
    expect(family.versions[1]!.transitions).toEqual([{ change: 'regression', from: 'TOOL_SUCCESS', to: 'error', count: 1, rows: [{ caseId: 'baseline', protocolVersion: '2025-11-25' }] }]);
  });
});

describe('trend in summary.md and matrix.html', () => {
  it('summary.md lists the changes per version', () => {
    const markdown = renderMarkdown(makeTrendRunResult());
    expect(markdown).toContain(
      [
        '### Version trend: ts-sdk (3 versions)',
        '',
        '- **1.23.1**: first version (3 passed, 3 failed, 0 false successes)',
        '- **1.24.3**: 1 cell fixed (none → HTTP\\_ERROR 503 ×1: http-503 at 2025-11-25), 1 cell regressed (TOOL\\_SUCCESS → error ×1: worker-timeout at 2025-11-25) (3 passed, 1 failed, 0 false successes, 1 skipped, 1 not measured (error))',
        '- **1.25.3**: 2 cells fixed (none → TOOL\\_SUCCESS ×1: skipped-middle at 2025-11-25; error → TOOL\\_SUCCESS ×1: worker-timeout at 2025-11-25), 1 cell regressed (INVALID\\_TOOL\\_RESULT → TOOL\\_SUCCESS [false-success] ×1: result-missing-content at 2025-11-25), 1 cell with another outcome (TOOL\\_ERROR → NO\\_RESPONSE [false-failure] ×1: jsonrpc-error at 2025-11-25) (4 passed, 2 failed, 1 false successes)',
        '',
        '5 case × protocol version rows change between versions; 1 stay the same.',
      ].join('\n'),
    );
    expect(renderMarkdown(makeRunResult())).not.toContain('Version trend');
  });

  it('summary.md names the cases of every change, each case once with its protocol versions, and counts those past five', () => {
    const versions = ['2025-03-26', '2025-06-18', '2025-11-25'] as const;
    const cases = ['id-omitted-error', 'c1_a', 'c2', 'c3', 'c4', 'c5', 'c6'];
    const cells = cases.flatMap((id, n) =>
      ['1.24.3', '1.25.3'].flatMap((version, i) => (n === 0 ? versions : versions.slice(2)).map((protocolVersion) => makeCell({ case: id, protocolVersion, target: `ts-sdk@${version}`, status: i === 0 ? 'pass' : 'fail' }))),
    );
    const markdown = renderMarkdown(makeRunResult({ cells, targets: [] }));
    expect(markdown).toContain('9 cells regressed (TOOL\\_SUCCESS → TOOL\\_SUCCESS [false-success] ×9: c1\\_a at 2025-11-25; c2 at 2025-11-25; c3 at 2025-11-25; c4 at 2025-11-25; c5 at 2025-11-25; 2 more cases)');
    const three = cells.filter((c) => c.case === 'id-omitted-error');
    expect(renderMarkdown(makeRunResult({ cells: three, targets: [] }))).toContain('3 cells regressed (TOOL\\_SUCCESS → TOOL\\_SUCCESS [false-success] ×3: id-omitted-error at 2025-03-26, 2025-06-18, 2025-11-25)');
  });

  it('the HTML has the trend section only for a family, with the chart described in text', () => {
    expect(renderHtml(makeRunResult())).not.toContain('class="trend"');
    const html = renderHtml(makeTrendRunResult());
    expect(html).toContain('<h2 id="trend-0-title">Version trend: ts-sdk');
    expect(html).toContain('<desc id="trend-0-chart-desc">1.23.1: 3 passed, 3 failed, 0 false successes; 1.24.3: 3 passed, 1 failed, 0 false successes; 1.25.3: 4 passed, 2 failed, 1 false successes</desc>');
    expect(html.match(/<rect class="bar-/g)).toHaveLength(9);
    expect(html).toContain('title="regressed (false-success)"><i aria-hidden="true">▼</i><span class="sr">regressed (false-success): </span>TOOL_SUCCESS</td>');
  });

  it('escapes what the results carry into the trend', () => {
    const result = makeTrendRunResult();
    const hostile = { ...result, cells: result.cells.map((c) => (c.case === 'http-503' ? { ...c, case: '<img src=x onerror=alert(1)>' } : c)) };
    const html = renderHtml(hostile);
    const section = html.slice(html.indexOf('<section class="trend"'), html.indexOf('</section>', html.indexOf('<section class="trend"')));
    expect(section).not.toContain('<img');
    expect(section).toContain('&lt;img src&#x3D;x onerror&#x3D;alert(1)&gt;');
  });
});
