// A large table keeps its cases as the validated text, parsed when used (issue 28 item 4): what a
// lazily loaded case reads is what an eagerly loaded one holds, and it does not change when the
// file does.
import { cpSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packagePath } from '../util/package-paths.js';
import { CaseTextStore, LAZY_CASES, LazyLoadedCase, releaseLoadedCases } from './lazy-loaded-case.js';
import { loadCases } from './load-cases.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mem-lazy-cases-'));
  for (const folder of ['application', 'protocol']) {
    mkdirSync(join(dir, 'cases', folder), { recursive: true });
    for (const name of readdirSync(packagePath('cases', folder))) cpSync(packagePath('cases', folder, name), join(dir, 'cases', folder, name));
  }
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('a table loaded lazily', () => {
  it(`is the table loaded eagerly, case for case (tables of ${LAZY_CASES} files or more are loaded so)`, async () => {
    const eager = await loadCases({ sources: [join(dir, 'cases')], cwd: dir });
    const lazy = await loadCases({ sources: [join(dir, 'cases')], cwd: dir, lazyFrom: 1 });
    expect(lazy.every((item) => item instanceof LazyLoadedCase)).toBe(true);
    expect(eager.some((item) => item instanceof LazyLoadedCase)).toBe(false);
    expect(lazy.map(({ file, relativeFile, sha256, case: item }) => ({ file, relativeFile, sha256, case: item }))).toEqual(
      eager.map(({ file, relativeFile, sha256, case: item }) => ({ file, relativeFile, sha256, case: item })),
    );
    expect(Object.isFrozen(lazy[0]!.case.exchanges[0])).toBe(true);
    releaseLoadedCases(lazy);
    expect(() => lazy[1]!.case).toThrow();
  });

  // The file is never read again (the store holds the text; the next test shows a case parsed anew from it).
  it('reads the text validated at load, whatever happens to the file afterwards', async () => {
    const [first] = await loadCases({ sources: [join(dir, 'cases', 'application')], cwd: dir, lazyFrom: 1 });
    const before = first!.case;
    writeFileSync(first!.file, '{ "not": "a case" }\n');
    expect(first!.case).toEqual(before);
    releaseLoadedCases([first!]);
  });
});

describe('CaseTextStore', () => {
  it('is a file of this process readable by its owner alone, removed once closed', () => {
    const own = join(dir, 'store');
    mkdirSync(own);
    const store = new CaseTextStore(own);
    const [name] = readdirSync(own);
    expect(name).toMatch(/^mcp-error-matrix-cases-\d+-[0-9a-f]{12}\.jsonl$/);
    expect(statSync(join(own, name!)).mode & 0o777).toBe(0o600);
    const place = store.add('{"id":"x"}');
    expect(store.read(place.offset, place.length)).toEqual({ id: 'x' });
    store.close();
    expect(readdirSync(own)).toEqual([]);
  });

  it('parses a case again once more than its cache holds were used since, to the same value', () => {
    const store = new CaseTextStore(dir);
    try {
      const places = Array.from({ length: 1500 }, (_, i) => store.add(`{"id":"c${i}"}`));
      const first = store.read(places[0]!.offset, places[0]!.length);
      for (const place of places) store.read(place.offset, place.length);
      const again = store.read(places[0]!.offset, places[0]!.length);
      expect(again).not.toBe(first);
      expect(again).toEqual(first);
    } finally {
      store.close();
    }
  });
});
