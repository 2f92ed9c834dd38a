import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { loadCases } from '../../runner/cases/load-cases.js';
import { runCli } from '../run-cli.js';
import { CASE_MUTATIONS, type CaseMutation } from './case-mutations.js';

const PER_FILE = 3;
const table = await loadCases();
const root = mkdtempSync(join(tmpdir(), 'mem-mutated-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// A small seeded generator: the sample is the same on every run.
function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

interface Planned {
  file: string;
  mutation: CaseMutation;
  text: string;
  extra?: { path: string; text: string };
}

// Every file gets PER_FILE mutations; mutation kinds rotate so every kind is tried on many files.
function planMutations(): Planned[] {
  const random = createRandom(8);
  const planned: Planned[] = [];
  table.forEach((loaded, fileIndex) => {
    const original = readFileSync(loaded.file, 'utf8');
    const chosen = new Set<number>([fileIndex % CASE_MUTATIONS.length]);
    while (chosen.size < PER_FILE) chosen.add(Math.floor(random() * CASE_MUTATIONS.length));
    for (const index of chosen) {
      const mutation = CASE_MUTATIONS[index]!;
      const text = mutation.apply(loaded.case, original);
      if (text === undefined) continue;
      planned.push({ file: loaded.relativeFile, mutation, text, ...(mutation.extraFile ? { extra: mutation.extraFile(loaded.case) } : {}) });
    }
  });
  return planned;
}

const planned = planMutations();
// A valid sibling that must not run either: nothing runs when any file is broken.
const sibling = table.find((loaded) => loaded.case.id === 'tool-is-error')!;

function writeTable(item: Planned, index: number): string {
  const dir = join(root, String(index));
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  if (item.file !== sibling.relativeFile) write(sibling.relativeFile, readFileSync(sibling.file, 'utf8'));
  write(item.file, item.text);
  if (item.extra) write(item.extra.path, item.extra.text);
  return dir;
}

describe('mutated case files: exit 2, file and pointer named, nothing run', () => {
  test(`${planned.length} mutations over ${table.length} files, every kind tried`, async () => {
    expect(new Set(planned.map((item) => item.mutation.name)).size).toBe(CASE_MUTATIONS.length);
    const failures: string[] = [];
    for (const [index, item] of planned.entries()) {
      const dir = writeTable(item, index);
      const run = await runCli(['run', '--cases', dir, '--target', 'reference', '--mode', 'direct', '--no-schemas', '--quiet']);
      // A duplicate is reported on whichever of the two files sorts second.
      const named = item.extra ? [item.file, item.extra.path] : [item.file];
      const wheres = named.map((file) => (item.mutation.pointer === undefined ? `${file}: is not valid JSON` : `${file} at ${item.mutation.pointer}`));
      const ok = run.code === 2 && run.stdout === '' && wheres.some((where) => run.stderr.includes(where)) && !/\n\s+at /.test(run.stderr) && /nothing was run/.test(run.stderr);
      if (!ok) failures.push(`${item.file} / ${item.mutation.name}: code ${run.code}, stdout ${run.stdout.length} bytes, stderr ${JSON.stringify(run.stderr.slice(0, 400))}`);
    }
    console.info(`case mutations: ${planned.length} tried, ${planned.length - failures.length} rejected correctly`);
    expect(failures).toEqual([]);
  });
});
