import { describe, expect, it } from 'vitest';
import { expectGolden } from '../../test/expect-golden.js';
import { makeCell, makeCheck, makeRunResult } from '../../test/make-run-result.js';
import type { Comparison } from '../model/index.js';
import { escapeMarkdown, render } from './markdown.js';

const comparison: Comparison = {
  baselineLabel: 'report-main/results.json',
  regressions: [{ case: 'content-not-array', target: 'naive', protocolVersion: '2025-11-25', before: 'xfail', after: 'fail' }],
  fixes: [{ case: 'baseline', target: 'naive', protocolVersion: '2025-11-25', before: 'fail', after: 'pass' }],
  added: [{ case: 'http-503-then-200', target: 'reference', protocolVersion: '2025-11-25', after: 'non_strict' }],
  removed: [{ case: 'old-case', target: 'reference', protocolVersion: '2026-07-28', before: 'pass' }],
};

describe('Markdown summary', () => {
  it('matches the golden file (no volatile fields beyond the fixed start time)', async () => {
    const md = render(makeRunResult(), { comparison }).replace(/Started \S+/, 'Started <masked>');
    await expectGolden(md, new URL('./__golden__/summary.md', import.meta.url));
    // What a reader relies on, checked without the golden: the counts, per status and per target,
    // and escaping (a bare _ would start emphasis).
    const { cells, targets } = makeRunResult();
    const count = (status: string, target?: string) => cells.filter((c) => c.status === status && (target === undefined || c.target === target)).length;
    const statuses = ['pass', 'fail', 'non_strict', 'skip', 'error', 'xfail', 'xpass'];
    expect(md).toContain(`${cells.length} cells · ${statuses.map((status) => `${count(status)} ${status}`).join(' · ')}`);
    for (const { name } of targets) {
      expect(md).toContain(`| ${name} | 0.1.0 | ${statuses.map((status) => count(status, name)).join(' | ')} | ${cells.filter((c) => c.target === name).length} |`);
    }
    expect(md).toContain(`### Unexpected failures (${count('fail') + count('error') + count('xpass')})`);
    expect(md).toContain(`### Known failures (${count('xfail')}), by consequence`);
    expect(md).toContain('INVALID\\_TOOL\\_RESULT');
    expect(md).not.toMatch(/[^\\]_TOOL_RESULT/);
  });

  it('gives each target one line with unexpected and known failures apart, by consequence', () => {
    const md = render(makeRunResult());
    expect(md).toContain('- **reference** 0.1.0: 1 unexpected: 1 stale baseline entry · 0 known');
    expect(md).toContain('- **naive** 0.1.0: 2 unexpected: 1 false success, 1 error (not measured) · 1 known: 1 false success');
  });

  it('lists known failures grouped by consequence, worst first, one line each', () => {
    const failed = (consequence: 'false-success' | 'unsafe-retry', n: number) =>
      makeCheck({ id: `outcome@${n}`, passed: false, consequence, message: `outcome@${n}: expected STREAM_INCOMPLETE, got ${consequence === 'false-success' ? 'TOOL_SUCCESS' : 'NO_RESPONSE'}` });
    const cells = [
      makeCell({ case: 'retry-a', status: 'xfail', checks: [failed('unsafe-retry', 1)] }),
      makeCell({ case: 'success-a', status: 'xfail', checks: [failed('false-success', 1)] }),
      makeCell({ case: 'retry-b', status: 'xfail', checks: [failed('unsafe-retry', 1), failed('false-success', 2)] }),
    ];
    const md = render(makeRunResult({ cells }));
    expect(md).toContain('- **reference** 0.1.0: 0 unexpected · 3 known: 2 false successes, 1 unsafe retry');
    const known = md.slice(md.indexOf('### Known failures (3)'));
    expect(known.indexOf('#### False successes (2)')).toBeLessThan(known.indexOf('#### Unsafe retries (1)'));
    expect(known.match(/^- \*\*/gm)).toHaveLength(3);
    // Each failure is written once: the check's message already names the check and both outcomes.
    expect(known).toContain('- **retry-a** · reference · 2025-11-25: MUST outcome@1: expected STREAM\\_INCOMPLETE, got NO\\_RESPONSE\n');
    expect(md).not.toMatch(/outcome@1: outcome@1/);
    expect(md).not.toMatch(/ — expected .*, actual /);
  });

  it('defines every specification reference it cites, linked at the pinned commit', () => {
    const cells = [makeCell({ status: 'fail', checks: [makeCheck({ passed: false, message: 'wire.no-response: a 2026-07-28 client MUST NOT send responses (SH26 § Sending Messages)' })] })];
    const md = render(makeRunResult({ cells }));
    expect(md).toContain('### Specification references\n\n- **SH26**: [MCP 2026-07-28: Streamable HTTP transport](https://github.com/modelcontextprotocol/modelcontextprotocol/blob/b0f60ba5409db7a6582440a7b473cc0398890f15/docs/specification/2026-07-28/basic/transports/streamable-http.mdx)\n');
    expect(render(makeRunResult())).not.toContain('Specification references');
  });

  it('counts each target\'s unsafe cells, known or not, and says when all are known', () => {
    const check = (consequence: 'false-success' | 'lost-recovery') => [makeCheck({ id: 'outcome@1', passed: false, consequence, expected: 'NO_RESPONSE', actual: 'TOOL_SUCCESS', message: 'outcome@1: …' })];
    const cells = [
      makeCell({ case: 'a', target: 'naive', status: 'xfail', checks: check('false-success') }),
      makeCell({ case: 'b', target: 'naive', status: 'xfail', checks: check('false-success') }),
      makeCell({ case: 'c', target: 'naive', status: 'xfail', checks: check('lost-recovery') }),
      makeCell({ case: 'a', target: 'reference', status: 'pass' }),
    ];
    const md = render(makeRunResult({ cells }));
    expect(md).toContain('**2 unsafe cells** (a false success, a false failure, an unsafe retry or no conclusion), all of them known failures: the baseline keeps the run green, not the clients safe.');
    expect(md).toMatch(/^\| naive \| 0\.1\.0 \| 0 \| 0 \| 0 \| 0 \| 0 \| 3 \| 0 \| 3 \| \*\*2\*\* \|$/m);
    expect(md).toMatch(/^\| reference \| 0\.1\.0 \| 1 \| 0 \| 0 \| 0 \| 0 \| 0 \| 0 \| 1 \| 0 \|$/m);
    expect(render(makeRunResult({ cells: [cells[3]!] }))).not.toContain('unsafe cells**');
  });

  it('has a counts table with one row per target', () => {
    const md = render(makeRunResult());
    expect(md).toContain('| reference | 0.1.0 | 3 | 0 | 1 | 0 | 0 | 0 | 1 | 5 |');
    expect(md).toMatch(/^\| naive \|/m);
  });

  it('caps the failing list and says how many were omitted', () => {
    const cells = Array.from({ length: 30 }, (_, i) => makeCell({ case: `case-${i}`, status: 'fail' }));
    const md = render(makeRunResult({ cells }), { maxFailures: 10 });
    expect(md.split('\n').filter((l) => l.startsWith('- **case-'))).toHaveLength(10);
    expect(md).toContain('… 20 more failing cells omitted');
  });

  it('shows regressions, fixes, added and removed cells when comparing', () => {
    const md = render(makeRunResult(), { comparison });
    expect(md).toContain('1 regressions · 1 fixes · 1 added · 1 removed');
    expect(md).toContain('### Regressions (1)');
    expect(md).toContain('xfail → fail');
    expect(md).toContain('### Removed (1)');
  });

  it('omits the comparison section without a comparison', () => {
    expect(render(makeRunResult())).not.toContain('Comparison');
  });

  it('warns when the run is incomplete', () => {
    expect(render(makeRunResult({ complete: false }))).toContain('**Incomplete run:**');
  });

  it('stays under the byte cap and ends with a truncation note', () => {
    const cells = Array.from({ length: 5000 }, (_, i) => makeCell({ case: `case-${i}-${'x'.repeat(200)}`, status: 'fail' }));
    const md = render(makeRunResult({ cells }), { maxFailures: 10_000, maxBytes: 64 * 1024 });
    expect(Buffer.byteLength(md)).toBeLessThanOrEqual(64 * 1024);
    expect(md).toContain('**Truncated:**');
    const full = render(makeRunResult({ cells }), { maxFailures: 10_000 });
    expect(Buffer.byteLength(full)).toBeLessThanOrEqual(1024 * 1024);
  });

  it.each([
    ['a|b', 'a\\|b'],
    ['`code`', '\\`code\\`'],
    ['<b>x</b>', '&lt;b&gt;x&lt;/b&gt;'],
    ['line1\nline2', 'line1 line2'],
    ['[x](http://e)', '\\[x\\](http://e)'],
  ])('escapes %j', (input, expected) => {
    expect(escapeMarkdown(input)).toBe(expected);
  });
});
