// The cases of a large table are not held parsed: a parsed case takes about 1.6 KB of heap, so a
// table of 100,000 case files held 160 MB before its first cell (issue 28 item 4). The text of each
// validated file goes into a temporary file of the process (owner-only, removed at exit), and
// `case` parses it again when used, through a cache of the cases used last (a case's cells run one
// after another). The text read back is the one validated at load: a file edited during the run
// changes nothing.
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Case, LoadedCase } from './case-types.js';
import { createHeapBound } from '../util/heap-bound.js';
import { freezeParsedJson } from './freeze-parsed-json.js';

/** Tables of this many case files or more are loaded lazily (smaller ones keep their parsed cases). */
export const LAZY_CASES = 10_000;
/** Parsed cases kept at once, per table. */
const CACHED_CASES = 1024;

/** The validated texts of one table's cases, in a file of this process. */
export class CaseTextStore {
  private readonly fd: number;
  private readonly path: string;
  private end = 0;
  private readonly cache = new Map<number, Case>();
  // Every pass over a large table parses each case again (about 1.6 KB of heap each): the heap is
  // kept near what is live, as the cell store keeps it (heap-bound.ts).
  private readonly heap = createHeapBound();

  constructor(dir = tmpdir()) {
    this.path = join(dir, `mcp-error-matrix-cases-${process.pid}-${randomBytes(6).toString('hex')}.jsonl`);
    this.fd = openSync(this.path, 'wx+', 0o600);
    removeAtExit(this.path);
  }

  /** Keeps `text` (a validated case file's text); returns where it is. */
  add(text: string): { offset: number; length: number } {
    const bytes = Buffer.from(text);
    let done = 0;
    while (done < bytes.length) done += writeSync(this.fd, bytes, done, bytes.length - done, this.end + done);
    const place = { offset: this.end, length: bytes.length };
    this.end += bytes.length;
    return place;
  }

  /** The case kept at `offset`, parsed (and frozen) again unless it is among the last used. */
  read(offset: number, length: number): Case {
    const cached = this.cache.get(offset);
    if (cached) {
      // Most recently used last: the oldest is the first to go.
      this.cache.delete(offset);
      this.cache.set(offset, cached);
      return cached;
    }
    const buffer = Buffer.allocUnsafe(length);
    let done = 0;
    while (done < length) done += readSync(this.fd, buffer, done, length - done, offset + done);
    const parsed = freezeParsedJson(JSON.parse(buffer.toString('utf8')) as Case);
    this.heap.tick();
    this.cache.set(offset, parsed);
    if (this.cache.size > CACHED_CASES) this.cache.delete(this.cache.keys().next().value!);
    return parsed;
  }

  /** Removes the file (the cases of this table can no longer be read). */
  close(): void {
    if (!pending.has(this.path)) return;
    this.cache.clear();
    closeSync(this.fd);
    forget(this.path);
  }
}

/** Removes the text stores of the lazily loaded cases among `cases` (their `case` can no longer be read). */
export function releaseLoadedCases(cases: readonly LoadedCase[]): void {
  const stores = new Set<CaseTextStore>();
  for (const item of cases) if (item instanceof LazyLoadedCase) stores.add(item.store);
  for (const store of stores) store.close();
}

/** A LoadedCase whose `case` is parsed from the store when used. */
export class LazyLoadedCase implements LoadedCase {
  constructor(
    readonly store: CaseTextStore,
    private readonly offset: number,
    private readonly length: number,
    readonly file: string,
    readonly relativeFile: string,
    readonly sha256: string,
  ) {}

  get case(): Case {
    return this.store.read(this.offset, this.length);
  }
}

const pending = new Set<string>();
let hooked = false;

function removeAtExit(path: string): void {
  pending.add(path);
  if (hooked) return;
  hooked = true;
  process.once('exit', () => pending.forEach(unlinkQuietly));
}

function forget(path: string): void {
  pending.delete(path);
  unlinkQuietly(path);
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone.
  }
}
