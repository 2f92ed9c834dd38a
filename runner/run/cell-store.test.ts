// A large run keeps its cells on disk (issue 28 item 4: 100,000 cells held 600 MB): what is read
// back is what was put, in plan order, and every report written from it has the same bytes.
import { readdirSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderReportChunks } from '../../reports/index.js';
import { makeHostileRunResult } from '../../test/make-run-result.js';
import { loadCases } from '../cases/load-cases.js';
import { resolveTargets } from '../targets/resolve-target.js';
import { createCellStore, SPILL_CELLS, toCellSource } from './cell-store.js';
import { findUnmeasuredTargets, runMatrix, summariseCells } from './run-matrix.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mem-cell-store-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const render = (source: Parameters<typeof renderReportChunks>[0]) => renderReportChunks(source).map((file) => ({ name: file.name, text: [...file.content].join('') }));

describe('createCellStore', () => {
  it('keeps cells in memory below SPILL_CELLS planned cells and on disk from there on', () => {
    const small = createCellStore(SPILL_CELLS - 1, { dir });
    const large = createCellStore(SPILL_CELLS, { dir });
    expect([small.spilled, large.spilled]).toEqual([false, true]);
    small.close();
    large.close();
  });

  it('on disk: reads back what was put, in plan order, without the positions never filled; a cell put again replaces the first', () => {
    const cells = makeHostileRunResult().cells;
    const store = createCellStore(cells.length + 2, { spill: true, dir });
    try {
      store.put(cells.length + 1, cells[0]!);
      cells.forEach((cell, index) => store.put(index, cell));
      store.put(cells.length + 1, cells[1]!);
      expect(store.size).toBe(cells.length + 1);
      expect([...store.cells()]).toEqual([...cells, cells[1]]);
      expect(store.cellAt(cells.length)).toEqual(cells[1]);
      expect(store.cellAt(0)).toEqual(cells[0]);
    } finally {
      store.close();
    }
  });

  it('on disk: the file is readable by its owner alone, and gone once the store is closed', () => {
    const before = readdirSync(dir);
    const store = createCellStore(1, { spill: true, dir });
    const created = readdirSync(dir).filter((name) => !before.includes(name));
    expect(created).toHaveLength(1);
    expect(created[0]).toMatch(/^mcp-error-matrix-cells-\d+-[0-9a-f]{12}\.jsonl$/);
    expect(statSync(join(dir, created[0]!)).mode & 0o777).toBe(0o600);
    store.close();
    expect(readdirSync(dir)).toEqual(before);
  });

  it('every report written from cells on disk has the bytes of the same cells in memory', () => {
    const result = makeHostileRunResult();
    const store = createCellStore(result.cells.length, { spill: true, dir });
    try {
      result.cells.forEach((cell, index) => store.put(index, cell));
      const { cells: _cells, ...head } = result;
      expect(render(toCellSource(store, head))).toEqual(render(result));
    } finally {
      store.close();
    }
  });
});

describe('runMatrix with a cell store', () => {
  it('leaves the result\'s cells to the store and still counts every cell in the summary and the unmeasured targets', async () => {
    const cases = (await loadCases()).filter((loaded) => ['baseline', 'malformed-json', 'tool-is-error'].includes(loaded.case.id));
    const targets = await resolveTargets(['reference', 'naive'], { cwd: process.cwd() });
    const store = createCellStore(100, { spill: true, dir });
    try {
      const result = await runMatrix({ cases, targets, mode: 'direct', cellStore: store });
      expect(result.cells).toEqual([]);
      const cells = [...store.cells()];
      expect(cells).toHaveLength(3 * 2 * 4);
      expect(cells.map((cell) => `${cell.target} ${cell.case} ${cell.protocolVersion}`)).toEqual(
        targets.flatMap((target) => cases.flatMap((loaded) => loaded.case.versions.map((version) => `${target.info.name} ${loaded.case.id} ${version}`))),
      );
      expect(result.summary).toEqual(summariseCells(cells));
      expect(findUnmeasuredTargets(targets.map((target) => target.info), cells)).toEqual([]);
      expect(result.unmeasured).toBeUndefined();
      expect(result.summary.fail).toBeGreaterThan(0);
    } finally {
      store.close();
    }
  });
});
