import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CELL_STATUSES } from '../../runner/vocabulary/types.js';
import { expectGolden } from '../../test/expect-golden.js';
import { HOSTILE, SECRETS, makeCase, makeCell, makeCheck, makeRecording, makeRunResult, makeSyntheticRunResult } from '../../test/make-run-result.js';
import { redactText } from '../redaction/redact.js';
import { stripControl } from '../redaction/strip-control.js';
import { SPEC_COMMIT } from '../model/index.js';
import type { Comparison } from '../model/index.js';
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
    // The references list links the specification's pages (anchors, never loaded): those links only.
    const references = section(html, '<section class="references"', '</section>');
    const links = [...references.matchAll(/<a href="([^"]*)" rel="noopener noreferrer">/g)].map((m) => m[1]);
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) expect(link).toMatch(new RegExp(`^https://github\\.com/modelcontextprotocol/modelcontextprotocol/blob/${SPEC_COMMIT}/`));
    expect(references.replace(/<a href="[^"]*" rel="noopener noreferrer">/g, '<a>')).not.toMatch(/https?:|\b(?:src|href)\s*=/i);
    const outsideData = html.replace(/<script type="application\/json"[\s\S]*?<\/script>/, '').replace(references, '');
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
    const cells = html.match(/<td class="s-[a-z_]+ t\d+"[^>]*>(?:<i>[^<]*<\/i>)?(?:<b[^>]*>[^<]*<\/b>)?[^<]*(?:<span class="sep"> · <\/span><small>[^<]*<\/small>)?<\/td>/g) ?? [];
    expect(cells.length).toBe(result.targets.length * 2 * result.cases.length);
    for (const cell of cells) expect(cell).toMatch(/>(?:<i>.<\/i>)?(?:<b aria-label="false success">⚠<\/b>)?(PASS|FAIL|NON-STRICT|SKIP|ERROR|XFAIL|XPASS|—)(?:<span class="sep"> · <\/span><small>[A-Z_]+<\/small>)?<\/td>$/);
  });

  it('shows expected → actual in the cell: the concluded outcome after the word, a false success marked in its text', () => {
    // naive concluded TOOL_SUCCESS on content-not-array (expected INVALID_TOOL_RESULT), graded false-success.
    expect(html).toMatch(/<td class="s-fail t\d+" data-i="\d+" data-s="fail" data-k="false-success" tabindex="0"><b aria-label="false success">⚠<\/b>FAIL<span class="sep"> · <\/span><small>TOOL_SUCCESS<\/small><\/td>/);
    expect(html).toMatch(/data-s="xfail" data-k="false-success" tabindex="0"><b aria-label="false success">⚠<\/b>XFAIL<span class="sep"> · <\/span><small>TOOL_SUCCESS<\/small><\/td>/);
    const unreported = makeCell({ status: 'xfail', checks: [makeCheck({ id: 'outcome@1', passed: false, expected: 'STREAM_INCOMPLETE', actual: null, consequence: 'no-conclusion', message: 'outcome@1: expected STREAM_INCOMPLETE, not reported' })] });
    const page = render(makeRunResult({ cells: [unreported] }));
    expect(page).toMatch(/data-s="xfail" tabindex="0">XFAIL<span class="sep"> · <\/span><small>NOTHING<\/small><\/td>/);
    // The full sentence is the tooltip's, carried once in the details JSON.
    expect(dataBlock(page).cells[0]!['mismatch']).toBe('expected STREAM_INCOMPLETE, the target concluded nothing: no conclusion (a crash, no verdict, or its own timeout)');
    // Without a judged outcome, the sentence is the failed check's message, or why nothing was measured.
    const wire = makeCell({ case: 'http-503-then-200', status: 'non_strict' });
    const broken = makeCell({ case: 'content-not-array', status: 'error' });
    const sentences = dataBlock(render(makeRunResult({ cells: [wire, broken] }))).cells.map((cell) => cell['mismatch']);
    expect(sentences).toEqual(['retried before Retry-After elapsed', 'target exited with code 1 before making a request']);
  });

  it('keeps checks, schema results, transcripts and target output in gzip evidence blocks, unpacked to the same parts', () => {
    const marker = 'evidence-marker-0123';
    const cell = makeCell({ status: 'fail', recording: makeRecording({ body: `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"${marker}"}]}}` }), targetRun: { exitCode: 0, timedOut: false, stderr: `stderr ${marker}`, stdout: '', durationMs: 3 } });
    const page = render(makeRunResult({ cells: [cell] }));
    expect(page).not.toContain(marker);
    const [expanded] = dataBlock(page).cells as { transcript: { response: { body: string } }[]; run: { stderr: string }; checks: unknown[]; schema: unknown[] }[];
    expect(expanded!.transcript[0]!.response.body).toContain(marker);
    expect(expanded!.run.stderr).toBe(`stderr ${marker}`);
    expect(expanded!.checks).toHaveLength(cell.checks.length);
    expect(expanded!.schema).toHaveLength(cell.schema.length);
  });

  it('defines every status in the legend and counts each in the header', () => {
    const legend = section(html, '<details class="legend"', '</details>');
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

  it('orders targets by the share of failing cells, known (xfail) ones counted too, then by fewest failures, and gives each its line', () => {
    const cells = [
      makeCell({ target: 'a', status: 'fail' }),
      makeCell({ target: 'a', case: 'x', status: 'error' }),
      makeCell({ target: 'b', status: 'fail' }),
      makeCell({ target: 'c', status: 'pass' }),
      ...['x', 'y', 'z'].map((id) => makeCell({ target: 'd', case: id, status: 'xfail' })),
    ];
    const view = buildMatrixViewModel(makeRunResult({ targets: ['a', 'b', 'c', 'd'].map((name) => ({ name, kind: 'builtin' })), cells }));
    expect(view.targets.map((t) => [t.name, t.failures, t.failureLine])).toEqual([
      ['c', 0, '0 unexpected · 0 known'],
      ['b', 1, '1 unexpected: 1 false success · 0 known'],
      ['a', 2, '2 unexpected: 1 false success, 1 error (not measured) · 0 known'],
      ['d', 3, '0 unexpected · 3 known: 3 false successes'],
    ]);
    expect(view.columns.map((c) => c.target)).toEqual(['c', 'b', 'a', 'd']);
    expect(render(makeRunResult({ cells }))).toContain('<span class="fails">0 unexpected · 3 known: 3 false successes <span class="muted">(100.0 % of 3 cells run fail)</span></span>');
  });

  it('defines every specification reference the cases and failed checks cite, linked at the pinned commit', () => {
    const cases = [makeCase({ spec: [{ ref: 'T25 § Sending Messages to the Server, item 6' }, { ref: 'ST26 CallToolResult' }] })];
    const cells = [makeCell({ status: 'fail', checks: [makeCheck({ passed: false, message: 'wire.no-response: a 2026-07-28 client MUST NOT send responses (SH26 § Sending Messages)' })] })];
    const page = render(makeRunResult({ cases, cells }));
    const references = section(page, '<section class="references"', '</section>');
    expect([...references.matchAll(/<dt><code>([A-Z0-9]+)<\/code><\/dt>/g)].map((m) => m[1])).toEqual(['T25', 'ST26', 'SH26']);
    expect(references).toContain(`<a href="https://github.com/modelcontextprotocol/modelcontextprotocol/blob/${SPEC_COMMIT}/docs/specification/2026-07-28/basic/transports/streamable-http.mdx" rel="noopener noreferrer">MCP 2026-07-28: Streamable HTTP transport</a>`);
    // A case reference without a link of its own gets its page in the details, with the title.
    expect(dataBlock(page).cases['baseline']).toMatchObject({ spec: [{ ref: 'T25 § Sending Messages to the Server, item 6', url: expect.stringContaining('/2025-11-25/basic/transports.mdx'), title: 'MCP 2025-11-25: Transports (Streamable HTTP)' }, expect.anything()] });
  });

  it('groups targets by stack (a group where its best target ranks), heads each group, and numbers the list on across groups', () => {
    const cells = [
      makeCell({ target: 'ts-sdk@1', status: 'fail' }),
      makeCell({ target: 'ai-sdk@2', status: 'pass' }),
      makeCell({ target: 'langchain@1', case: 'x', status: 'fail' }),
      makeCell({ target: 'langchain@1', status: 'fail' }),
      makeCell({ target: 'reference', status: 'pass' }),
    ];
    const targets = [
      { name: 'ts-sdk@1', kind: 'client', stack: 'official TypeScript SDK' },
      { name: 'ai-sdk@2', kind: 'client', stack: 'Vercel AI SDK' },
      { name: 'langchain@1', kind: 'client', stack: 'official TypeScript SDK' },
      { name: 'reference', kind: 'classifier' },
    ];
    const view = buildMatrixViewModel(makeRunResult({ targets, cells }));
    expect(view.targetGroups.map((g) => [g.stack, g.start, g.targets.map((t) => t.name)])).toEqual([
      ['Vercel AI SDK', 1, ['ai-sdk@2']],
      ['classifiers', 2, ['reference']],
      ['official TypeScript SDK', 3, ['ts-sdk@1', 'langchain@1']],
    ]);
    expect(view.columns.map((c) => c.target)).toEqual(['ai-sdk@2', 'reference', 'ts-sdk@1', 'langchain@1']);
    const list = section(render(makeRunResult({ targets, cells })), '<section class="targets"', '<details class="legend"');
    // Headings are not list items: the numbers run 1, 2, 3, 4 across the groups.
    expect(list.match(/<h3>[^<]*<\/h3>/g)).toEqual(['<h3>Vercel AI SDK</h3>', '<h3>classifiers</h3>', '<h3>official TypeScript SDK</h3>']);
    expect(list.match(/<ol start="\d+">/g)).toEqual(['<ol start="1">', '<ol start="2">', '<ol start="3">']);
    expect(list.match(/<li>/g)).toHaveLength(4);
    expect(list).not.toMatch(/<li[^>]*>\s*<h3>/);
  });

  it('shows no stack heading when every target is on one stack: one list from 1', () => {
    const view = buildMatrixViewModel(makeRunResult({ targets: ['a', 'b'].map((name) => ({ name, kind: 'builtin' })), cells: [makeCell({ target: 'a' }), makeCell({ target: 'b' })] }));
    expect(view.targetGroups).toEqual([{ start: 1, targets: view.targets }]);
  });

  it('ranks targets by the share of the cells they ran that fail, so skipping half the cells ranks no one first', () => {
    const ids = Array.from({ length: 8 }, (_, i) => `c${i}`);
    const targets = ['skips-half', 'runs-all'].map((name) => ({ name, kind: 'builtin' }));
    const cells = [
      // 4 run, 2 fail (50 %), 4 skipped: fewer failures than runs-all, a worse share.
      ...ids.map((id, i) => makeCell({ case: id, target: 'skips-half', status: i < 4 ? 'skip' : i < 6 ? 'xfail' : 'pass' })),
      // 8 run, 3 fail (37.5 %).
      ...ids.map((id, i) => makeCell({ case: id, target: 'runs-all', status: i < 3 ? 'fail' : 'pass' })),
    ];
    const view = buildMatrixViewModel(makeRunResult({ targets, cells }));
    expect(view.targets.map((t) => [t.name, t.failures, t.ran, t.shareNote])).toEqual([
      ['runs-all', 3, 8, '37.5 % of 8 cells run fail'],
      ['skips-half', 2, 4, '50.0 % of 4 cells run fail; 8 in all'],
    ]);
  });

  it('says on the first screen how many cells are unsafe per target by consequence, known or not', () => {
    const graded = (consequence: 'false-success' | 'unsafe-retry' | 'lost-recovery') => [makeCheck({ id: 'outcome@1', passed: false, consequence, expected: 'NO_RESPONSE', actual: 'TOOL_SUCCESS', message: 'outcome@1: …' })];
    const cells = [
      makeCell({ case: 'a', target: 'naive', status: 'xfail', checks: graded('false-success') }),
      makeCell({ case: 'b', target: 'naive', status: 'xfail', checks: graded('false-success') }),
      makeCell({ case: 'c', target: 'naive', status: 'fail', checks: graded('unsafe-retry') }),
      makeCell({ case: 'd', target: 'naive', status: 'xfail', checks: graded('lost-recovery') }),
      makeCell({ case: 'a', target: 'reference', status: 'pass' }),
    ];
    const page = render(makeRunResult({ cells }));
    const header = section(page, '<header class="strip">', '</header>');
    expect(header).toContain('<li class="unsafe-count has-unsafe"><strong>3</strong> unsafe <span>(1 unexpected)</span></li>');
    const unsafe = section(page, '<section class="unsafe"', '</section>');
    expect(unsafe).toContain('<strong>3 unsafe cells</strong>: 2 false successes, 1 unsafe retry.');
    const rows = [...unsafe.matchAll(/<tr><th scope="row"><span class="tname">([^<]*)<\/span>.*?<\/th>((?:<td[^>]*>\d+<\/td>){4})/g)].map((m) => [m[1], [...m[2]!.matchAll(/>(\d+)</g)].map((n) => Number(n[1]))]);
    expect(rows).toEqual([
      ['reference', [0, 0, 0, 0]],
      ['naive', [2, 0, 1, 0]],
    ]);
    // Before the target list and the legend: the first thing after the header.
    expect(page.indexOf('<section class="unsafe"')).toBeLessThan(page.indexOf('<section class="targets"'));
    expect(page.indexOf('<section class="unsafe"')).toBeLessThan(page.indexOf('<details class="legend"'));
    // All known: the line says the baseline is what keeps the run green.
    const known = render(makeRunResult({ cells: cells.filter((cell) => cell.status === 'xfail') }));
    expect(section(known, '<section class="unsafe"', '</section>')).toContain('All are known failures: the baseline keeps the run green, not the client safe.');
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

  it('restores every cell\'s command exactly from its shared, marked part, also when the names contain each other', () => {
    const cells = [
      makeCell({ case: 'a', target: 'a-a', repro: 'run --case a --target a-a --version 2025-11-25 a-a2025-11-25' }),
      makeCell({ case: 'x', target: 't', repro: 'nothing to mark' }),
      makeCell({ case: 'c', target: 'tt', repro: `npx ${HOSTILE} \u0001c \u0001t ${SECRETS.bearer}` }),
    ];
    const data = JSON.parse(/<script type="application\/json" id="cell-data">([\s\S]*?)<\/script>/.exec(render(makeRunResult({ cells })))![1]!) as DetailsData;
    expect(data.cells.map((_, i) => expandCellRow(data, i)!['repro'])).toEqual(cells.map((c) => redactText(stripControl(c.repro))));
    // Commands that differ only by their case, target and version share one part.
    const shared = makeSyntheticRunResult({ cases: 3, targets: 2, versions: ['2025-11-25', '2026-07-28'] });
    const sharedData = JSON.parse(/id="cell-data">([\s\S]*?)<\/script>/.exec(render(shared))![1]!) as DetailsData;
    expect(new Set(sharedData.cells.map((row) => row[5])).size).toBe(1);
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
    expect(marked).toMatch(/data-mark="regression"[^>]*><i>▼<\/i><b aria-label="false success">⚠<\/b>FAIL<span class="sep"> · </);
    expect(marked).toMatch(/data-mark="fix"[^>]*><i>▲<\/i>PASS</);
    expect(marked).toContain('gone · naive · 2025-11-25 (was pass)');
    expect(marked).not.toContain('Paired targets');
  });

  it('lists the target pairs of a comparison in its banner, escaped', () => {
    const pairs = [
      { before: 'ts-client@2.0.0', after: 'ts-client@2.4.0' },
      { before: 'cmd:<b>old</b>', after: 'ts-sdk@1.32.2' },
    ];
    const comparison: Comparison = { regressions: [], fixes: [], added: [], removed: [], pairs };
    const banner = /<section class="compare"[\s\S]*?<\/section>/.exec(render(result, { comparison }))?.[0] ?? '';
    expect(banner).toContain(
      '<p class="pairs">Paired targets (old → new): <span class="tname">ts-client@2.0.0 → ts-client@2.4.0</span>, <span class="tname">cmd:&lt;b&gt;old&lt;/b&gt; → ts-sdk@1.32.2</span></p>',
    );
  });

  it('renders 500 cases × 6 targets × 2 versions in reasonable time', () => {
    const big = makeSyntheticRunResult({ cases: 500, targets: 6, versions: ['2025-11-25', '2026-07-28'] });
    const started = performance.now();
    const out = render(big);
    const ms = performance.now() - started;
    console.log(`HTML 500×6×2 (${big.cells.length} cells): ${ms.toFixed(0)} ms, ${(Buffer.byteLength(out) / 1024 / 1024).toFixed(1)} MiB`);
    expect(out.match(/<td class="s-/g)).toHaveLength(6000);
    expect(ms).toBeLessThan(15_000);
  });
});

describe('HTML details: what the library did', () => {
  it('carries each call\'s observation (redacted) and the tools/call count for the detail panel, beside the mapped outcome', () => {
    const observed = { calls: [{ threw: { class: 'SdkHttpError', name: 'SdkHttpError', message: `Error POSTing to endpoint: Bearer ${SECRETS.bearer}`, status: 503 } }], toolCallsSent: 2 };
    const page = render(makeRunResult({ cells: [makeCell({ target: 'ts-client@2.4.0', status: 'pass', observed })] }));
    const cell = dataBlock(page).cells[0]!;
    expect(cell['observed']).toMatchObject({ sent: 2, calls: [expect.stringContaining('"class":"SdkHttpError"')] });
    expect(JSON.stringify(cell['observed'])).not.toContain(SECRETS.bearer);
    expect(page).toContain('What the library did (before mapping)');
  });
});
