import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CELL_STATUSES } from '../runner/types.js';
import { expectGolden } from '../test/expect-golden.js';
import { makeCell, makeRecording, makeRunResult, makeSyntheticRunResult } from '../test/make-run-result.js';
import type { Comparison } from './compare-types.js';
import { expandCellRow, type DetailsData } from './html-details.js';
import { render } from './html.js';
import { buildMatrixViewModel } from './html-view-model.js';

const result = makeRunResult();
const html = render(result);

function section(text: string, start: string, end: string): string {
  const from = text.indexOf(start);
  return text.slice(from, text.indexOf(end, from) + end.length);
}

// The embedded rows with their shared parts resolved, as the client script shows them.
function dataBlock(text: string): { cases: Record<string, unknown>; cells: Record<string, unknown>[] } {
  const raw = /<script type="application\/json" id="cell-data">([\s\S]*?)<\/script>/.exec(text)?.[1];
  const data = JSON.parse(raw ?? 'null') as DetailsData;
  return { cases: data.cases, cells: data.cells.map((_, i) => expandCellRow(data, i)!) };
}

describe('HTML matrix', () => {
  it('matches the golden header strip and matrix markup', async () => {
    const markup = [section(html, '<header class="strip">', '</header>'), section(html, '<table class="matrix"', '</table>')]
      .join('\n')
      .replace(/<time>[^<]*<\/time>/g, '<time>MASKED</time>');
    await expectGolden(markup, new URL('./__golden__/matrix-markup.html', import.meta.url));
    // What a reader relies on, checked without the golden: the header's count of each status, and
    // one cell per case × target × version showing its own status.
    const header = section(html, '<header class="strip">', '</header>');
    expect(header).toContain(`<li><strong>${result.cells.length}</strong> cells</li>`);
    for (const status of CELL_STATUSES) {
      const count = result.cells.filter((c) => c.status === status).length;
      expect(header).toContain(`<li class="s-${status}"><strong>${count}</strong> `);
    }
    const shown = [...markup.matchAll(/<td class="s-([a-z_]+) t\d+" data-i="(-?\d+)"/g)].map(([, status, index]) => [status, Number(index)] as const);
    const present = shown.filter(([, index]) => index >= 0);
    for (const [status, index] of present) expect(status).toBe(result.cells[index]!.status);
    expect(present.map(([, index]) => index).sort((a, b) => a - b)).toEqual(result.cells.map((_, index) => index));
  });

  it('references no external resource and carries a CSP that blocks network access', () => {
    const outsideData = html.replace(/<script type="application\/json"[\s\S]*?<\/script>/, '');
    expect(outsideData).not.toMatch(/https?:\/\//);
    expect(outsideData).not.toMatch(/\b(?:src|href)\s*=/i);
    expect(outsideData).not.toMatch(/@import|url\(/i);
    expect(html).toContain("default-src 'none'");
  });

  it('allows exactly its own inline script through the CSP hash', () => {
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '';
    const hash = createHash('sha256').update(script).digest('base64');
    // Handlebars writes '=' as &#x3D; in attributes; the browser decodes it before reading the CSP.
    expect(html.replace(/&#x3D;/g, '=')).toContain(`script-src 'sha256-${hash}'`);
  });

  it('shows a word and a colour class in every cell', () => {
    const cells = html.match(/<td class="s-[a-z_]+ t\d+"[^>]*>[^<]*(?:<i>[^<]*<\/i>)?[^<]*<\/td>/g) ?? [];
    expect(cells.length).toBe(result.targets.length * 2 * result.cases.length);
    for (const cell of cells) expect(cell).toMatch(/>(?:<i>.<\/i>)?(PASS|FAIL|NON-STRICT|SKIP|ERROR|XFAIL|XPASS|—)<\/td>$/);
  });

  it('defines every status in the legend and counts each in the header', () => {
    const legend = section(html, '<section class="legend"', '</section>');
    const header = section(html, '<header class="strip">', '</header>');
    for (const status of CELL_STATUSES) {
      expect(legend).toContain(`s-${status}`);
      expect(header).toContain(`class="s-${status}"`);
    }
  });

  it('shows a banner only when the run is incomplete', () => {
    expect(html).not.toContain('Incomplete run');
    expect(render(makeRunResult({ complete: false }))).toContain('<p class="banner" role="alert"><strong>Incomplete run.</strong>');
  });

  it('orders targets by fewest failures', () => {
    const cells = [makeCell({ target: 'a', status: 'fail' }), makeCell({ target: 'a', case: 'x', status: 'error' }), makeCell({ target: 'b', status: 'fail' }), makeCell({ target: 'c', status: 'pass' })];
    const view = buildMatrixViewModel(makeRunResult({ targets: ['a', 'b', 'c'].map((name) => ({ name, kind: 'builtin' })), cells }));
    expect(view.targets.map((t) => [t.name, t.failures])).toEqual([
      ['c', 0],
      ['b', 1],
      ['a', 2],
    ]);
    expect(view.columns.map((c) => c.target)).toEqual(['c', 'b', 'a']);
  });

  it('groups cases by layer in the case-table layer order', () => {
    const view = buildMatrixViewModel(result);
    expect(view.groups.map((g) => g.layer)).toEqual(['transport', 'application']);
  });

  it('embeds per-cell details: case texts, checks, schema results, transcript, stderr, repro', () => {
    const data = dataBlock(html);
    expect(data.cases['baseline']).toMatchObject({ description: expect.stringContaining('HTTP 200'), spec: [expect.objectContaining({ ref: 'TL25 § Calling Tools' })] });
    expect(data.cells).toHaveLength(result.cells.length);
    const failed = data.cells.find((c) => c['s'] === 'fail');
    expect(failed).toMatchObject({
      checks: expect.arrayContaining([expect.objectContaining({ level: 'MUST', passed: false })]),
      schema: expect.arrayContaining([expect.objectContaining({ version: '2026-07-28', definition: 'CallToolResult' })]),
      transcript: [expect.objectContaining({ seq: 1, request: expect.objectContaining({ method: 'POST' }), response: expect.objectContaining({ status: 200 }) })],
      repro: expect.stringContaining('npx mcp-error-matrix run'),
    });
    const errored = data.cells.find((c) => c['s'] === 'error') as { run: { stderr: string } };
    expect(errored.run.stderr).toContain('ECONNREFUSED');
  });

  it('lists SSE events one by one with their timings', () => {
    const cells = [makeCell({ recording: makeRecording({ sse: ['data: {"a":1}\n\n', 'data: {"b":2}\n\n'] }) })];
    const data = dataBlock(render(makeRunResult({ cells }))) as unknown as { cells: { transcript: { response: { events: unknown[]; body: string } }[] }[] };
    expect(data.cells[0]!.transcript[0]!.response.events).toEqual([
      { at: 14, text: 'data: {"a":1}\n\n' },
      { at: 19, text: 'data: {"b":2}\n\n' },
    ]);
  });

  it('caps long bodies with a note', () => {
    const cells = [makeCell({ recording: makeRecording({ body: 'x'.repeat(50_000) }) })];
    const data = dataBlock(render(makeRunResult({ cells }), { maxBodyChars: 1000 })) as unknown as { cells: { transcript: { response: { body: string } }[] }[] };
    expect(data.cells[0]!.transcript[0]!.response.body).toMatch(/^x{1000}\n… \[49000 more characters not shown\]$/);
  });

  it('marks regressions, fixes and added cells when comparing', () => {
    const comparison: Comparison = {
      regressions: [{ case: 'content-not-array', target: 'naive', protocolVersion: '2025-11-25', before: 'pass', after: 'fail' }],
      fixes: [{ case: 'baseline', target: 'reference', protocolVersion: '2025-11-25', before: 'fail', after: 'pass' }],
      added: [],
      removed: [{ case: 'gone', target: 'naive', protocolVersion: '2025-11-25', before: 'pass' }],
    };
    const marked = render(result, { comparison });
    expect(marked).toMatch(/data-mark="regression"[^>]*><i>▼<\/i>FAIL</);
    expect(marked).toMatch(/data-mark="fix"[^>]*><i>▲<\/i>PASS</);
    expect(marked).toContain('gone · naive · 2025-11-25 (was pass)');
  });

  it('renders 500 cases × 6 targets × 2 versions in reasonable time', () => {
    const big = makeSyntheticRunResult({ cases: 500, targets: 6, versions: ['2025-11-25', '2026-07-28'] });
    const started = performance.now();
    const out = render(big);
    const ms = performance.now() - started;
    console.log(`HTML 500×6×2 (${big.cells.length} cells): ${ms.toFixed(0)} ms, ${(Buffer.byteLength(out) / 1024 / 1024).toFixed(1)} MiB`);
    expect(out.match(/<td /g)).toHaveLength(6000);
    expect(ms).toBeLessThan(15_000);
  });
});
