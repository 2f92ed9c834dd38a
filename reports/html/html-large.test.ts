// The large page (above drawRowsAbove cells): a row skeleton per case and the cells as JSON that
// matrix.client.js draws. What the reader relies on is checked against the run itself, not a
// golden: every cell in its case's row and its target × version column, with its own status.
import { describe, expect, it } from 'vitest';
import { CELL_STATUSES } from '../../runner/vocabulary/types.js';
import type { RunResult } from '../../runner/vocabulary/types.js';
import { makeCheck, makeCell, makeRunResult, makeSyntheticRunResult } from '../../test/make-run-result.js';
import type { Comparison } from '../model/index.js';
import { expandCellRow, type DetailsData } from './html-details.js';
import { render } from './html.js';

interface RowData {
  columns: number;
  versions: number;
  looks: { s: string; w: string; c?: string; m?: string; ms?: string; f?: number; o?: string }[];
  rows: number[][];
}

function block(page: string, id: string): string {
  const raw = new RegExp(`<script type="application/json" id="${id}">([\\s\\S]*?)</script>`).exec(page)?.[1];
  if (raw === undefined) throw new Error(`no ${id} block`);
  return raw;
}
const rowData = (page: string) => JSON.parse(block(page, 'row-data')) as RowData;
const details = (page: string) => {
  const data = JSON.parse(block(page, 'cell-data')) as DetailsData;
  return data.cells.map((_, i) => expandCellRow(data, i));
};
// Each skeleton row's position and case id, in page order.
const skeleton = (page: string) => [...page.matchAll(/<tr data-layer="[^"]*" data-q="[^"]*" data-r="(\d+)" class="pending"><th scope="row"><code>([^<]*)<\/code>/g)].map((m) => ({ r: Number(m[1]), caseId: m[2]! }));

describe('HTML matrix, large page (rows drawn from data)', () => {
  const result = makeSyntheticRunResult({ cases: 30, targets: 5, versions: ['2025-11-25', '2026-07-28'] });
  const page = render(result, { drawRowsAbove: 100 });

  it('writes no cell markup: one skeleton row per case with one empty cell across the columns', () => {
    expect(page).not.toMatch(/<td class="s-/);
    const rows = skeleton(page);
    expect(rows.map((row) => row.r)).toEqual(result.cases.map((_, i) => i));
    expect(new Set(rows.map((row) => row.caseId))).toEqual(new Set(result.cases.map((c) => c.id)));
    expect(page.match(/<td class="pending" colspan="10"><\/td>/g)).toHaveLength(30);
    expect(page.match(/<script\b/gi)).toHaveLength(3);
  });

  it('puts every cell in its case\'s row and its target × version column, with its status', () => {
    const data = rowData(page);
    const cells = details(page);
    const caseOfRow = new Map(skeleton(page).map((row) => [row.r, row.caseId]));
    // The column order is the header's: targets in their order, each with its versions.
    const targets = [...page.matchAll(/<th colspan="2" scope="colgroup" class="t(\d+)">([^<]*)<\/th>/g)].map((m) => m[2]!);
    const versions = [...page.matchAll(/<th scope="col" class="t0 v">([^<]*)<\/th>/g)].map((m) => m[1]!);
    expect(data).toMatchObject({ columns: 10, versions: 2 });
    expect(data.rows).toHaveLength(30);
    const seen: number[] = [];
    data.rows.forEach((pairs, r) => {
      expect(pairs).toHaveLength(20);
      for (let c = 0; c < 10; c++) {
        const [look, index] = [pairs[2 * c]!, pairs[2 * c + 1]!];
        const cell = result.cells[index]!;
        expect([cell.case, cell.target, cell.protocolVersion]).toEqual([caseOfRow.get(r), targets[Math.floor(c / 2)], versions[c % 2]]);
        expect(data.looks[look]!.s).toBe(cell.status);
        expect(cells[index]).toMatchObject({ c: cell.case, t: cell.target, v: cell.protocolVersion, s: cell.status });
        seen.push(index);
      }
    });
    expect(seen.sort((a, b) => a - b)).toEqual(result.cells.map((_, i) => i));
    // The header counts each status, as on a small page.
    for (const status of CELL_STATUSES) expect(page).toContain(`<li class="s-${status}"><strong>${result.cells.filter((c) => c.status === status).length}</strong> `);
  });

  it('carries the same details as the small page, only in another order of keys', () => {
    expect(details(page)).toEqual(details(render(result)));
    expect(block(page, 'cell-data').startsWith('{"cells":[')).toBe(true);
  });

  it('switches at the threshold: more cells than drawRowsAbove', () => {
    expect(render(result, { drawRowsAbove: result.cells.length })).not.toContain('id="row-data"');
    expect(render(result, { drawRowsAbove: result.cells.length - 1 })).toContain('id="row-data"');
  });

  it('gives the look of a cell its comparison mark, concluded outcome and false-success flag', () => {
    const small: RunResult = makeRunResult();
    const comparison: Comparison = {
      regressions: [{ case: 'content-not-array', target: 'naive', protocolVersion: '2025-11-25', before: 'pass', after: 'fail' }],
      fixes: [{ case: 'baseline', target: 'reference', protocolVersion: '2025-11-25', before: 'fail', after: 'pass' }],
      added: [],
      removed: [],
    };
    const data = rowData(render(small, { comparison, drawRowsAbove: 0 }));
    expect(data.looks).toContainEqual({ s: 'fail', w: 'FAIL', m: 'regression', ms: '▼', f: 1, o: 'TOOL_SUCCESS' });
    expect(data.looks).toContainEqual({ s: 'pass', w: 'PASS', m: 'fix', ms: '▲' });
    expect(data.looks[0]).toEqual({ s: 'none', w: '—' });
  });

  it('keeps outcome text inert inside the row data', () => {
    // A conclusion that is not an outcome name is shown as it is when short (describe-mismatch.ts).
    const planted = '</script><!--&x';
    const cell = makeCell({ status: 'fail', checks: [makeCheck({ id: 'outcome@1', passed: false, consequence: 'false-success', expected: 'STREAM_INCOMPLETE', actual: planted, message: 'outcome' })] });
    const out = render(makeRunResult({ cells: [cell] }), { drawRowsAbove: 0 });
    expect(block(out, 'row-data')).not.toContain('<');
    expect(rowData(out).looks.map((look) => look.o)).toContain(planted);
    expect(out.match(/<script\b/gi)).toHaveLength(3);
  });
});

// Issue 28 item 4: a large page's distinct parts wait in a temporary file until every row is
// written (100,000 distinct cases held 300 MB of them), and its skeleton rows are written in pieces
// (100,000 made one page string of 27 M characters); the page is the same, byte for byte.
describe('HTML matrix, large page with its parts kept on disk and its rows written in pieces', () => {
  it('writes the same bytes as with the parts in memory and the rows in the template, and leaves no file behind', async () => {
    const { readdirSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const spills = () => readdirSync(tmpdir()).filter((name) => name.startsWith(`mcp-error-matrix-parts-${process.pid}-`));
    const result = makeSyntheticRunResult({ cases: 30, targets: 5, versions: ['2025-11-25', '2026-07-28'] });
    const inMemory = render(result, { drawRowsAbove: 100, spillParts: false, streamRows: false });
    expect(render(result, { drawRowsAbove: 100, spillParts: true, streamRows: false })).toBe(inMemory);
    // The skeleton rows written in pieces outside the template: the same bytes too.
    expect(render(result, { drawRowsAbove: 100, spillParts: true, streamRows: true })).toBe(inMemory);
    expect(inMemory).toContain('"parts":[');
    expect(spills()).toEqual([]);
  });
});
