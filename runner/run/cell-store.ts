// Where a run keeps its finished cells. A cell holds its whole wire recording, checks and schema
// results (about 6 KB of heap each), so a run of 100,000 cells held them in 600 MB and peaked at
// 1.8 GB with its reports (issue 28 item 4). Past a size a store writes each cell to a temporary
// file as it finishes and reads it back when asked; the run then holds a few bytes per cell. Small
// runs keep their cells in memory, as before, at no cost.
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ReportHead, ReportSource } from '../../reports/model/index.js';
import type { Cell } from '../vocabulary/types.js';
import { createHeapBound } from '../util/heap-bound.js';

/** Planned cells at which a run's store writes its cells to disk instead of holding them. */
export const SPILL_CELLS = 20_000;

/** The finished cells of a run, by their position in the plan. */
export interface CellStore {
  /** Keeps `cell` as the plan's `index`-th (a cell given again for an index replaces the earlier one). */
  put(index: number, cell: Cell): void;
  /** How many cells are kept. */
  readonly size: number;
  /** A fresh pass over the cells kept, in plan order. */
  cells(): Iterable<Cell>;
  /** The `position`-th of the cells kept, in plan order (0 ≤ position < size). */
  cellAt(position: number): Cell;
  /** Whether cells are on disk (read back on each access, as fresh objects). */
  readonly spilled: boolean;
  /** Frees what the store holds; a spill file is removed. */
  close(): void;
}

/** A store for `planned` cells: on disk past SPILL_CELLS (or as `spill` says), else in memory. */
export function createCellStore(planned: number, options: { spill?: boolean; dir?: string } = {}): CellStore {
  return options.spill ?? planned >= SPILL_CELLS ? createDiskStore(planned, options.dir ?? tmpdir()) : createMemoryStore(planned);
}

/** The store as a report source: the run's fields with the cells read from the store, each through `map`. */
export function toCellSource(store: CellStore, head: ReportHead, map: (cell: Cell) => Cell = (cell) => cell): ReportSource {
  return {
    head,
    cellCount: store.size,
    cells: function* () {
      for (const cell of store.cells()) yield map(cell);
    },
    cellAt: (position) => map(store.cellAt(position)),
  };
}

function createMemoryStore(planned: number): CellStore {
  const slots = new Array<Cell | undefined>(planned);
  let order: Cell[] | undefined;
  const kept = (): Cell[] => (order ??= slots.filter((cell): cell is Cell => cell !== undefined));
  return {
    put(index, cell) {
      slots[index] = cell;
      order = undefined;
    },
    get size() {
      return kept().length;
    },
    cells: () => kept(),
    cellAt: (position) => kept()[position]!,
    spilled: false,
    close() {
      slots.length = 0;
      order = undefined;
    },
  };
}

/** Spill files still open, removed if the process exits first (a signal's second exit, the stop deadline). */
const openSpills = new Set<string>();
let exitHookInstalled = false;

function createDiskStore(planned: number, dir: string): CellStore {
  const path = join(dir, `mcp-error-matrix-cells-${process.pid}-${randomBytes(6).toString('hex')}.jsonl`);
  // Only this process reads it: created new, readable by its owner alone.
  const fd = openSync(path, 'wx+', 0o600);
  openSpills.add(path);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => openSpills.forEach(removeQuietly));
  }
  // Each pass reads every cell back as fresh objects: the heap is kept near what is live (heap-bound.ts).
  const heap = createHeapBound();
  const offsets = new Float64Array(planned).fill(-1);
  const lengths = new Uint32Array(planned);
  // A cell the disk refused (no space) stays in memory: a full disk costs memory, never a cell.
  const held = new Map<number, Cell>();
  let end = 0;
  let order: Int32Array | undefined;
  const positions = (): Int32Array => {
    if (order) return order;
    const filled: number[] = [];
    for (let index = 0; index < planned; index++) if (offsets[index]! >= 0 || held.has(index)) filled.push(index);
    return (order = Int32Array.from(filled));
  };
  const read = (index: number): Cell => {
    heap.tick();
    const kept = held.get(index);
    if (kept) return kept;
    const buffer = Buffer.allocUnsafe(lengths[index]!);
    let done = 0;
    while (done < buffer.length) done += readSync(fd, buffer, done, buffer.length - done, offsets[index]! + done);
    return JSON.parse(buffer.toString('utf8')) as Cell;
  };
  return {
    put(index, cell) {
      heap.tick();
      order = undefined;
      const bytes = Buffer.from(JSON.stringify(cell));
      try {
        let done = 0;
        while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done, end + done);
      } catch {
        held.set(index, cell);
        offsets[index] = -1;
        return;
      }
      held.delete(index);
      offsets[index] = end;
      lengths[index] = bytes.length;
      end += bytes.length;
    },
    get size() {
      return positions().length;
    },
    cells: function* () {
      for (const index of positions()) yield read(index);
    },
    cellAt: (position) => read(positions()[position]!),
    spilled: true,
    close() {
      if (!openSpills.delete(path)) return;
      try {
        closeSync(fd);
      } finally {
        removeQuietly(path);
        held.clear();
      }
    },
  };
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone.
  }
}
