// results.json is an index since results@2 (issue 30): compare, merge and run --compare read the
// whole model from results.full.json.gz beside it, bounded, and refuse evidence that is missing,
// not gzip, too large once decompressed, or of another run, naming the file and what to do.
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderFull } from '../../reports/formats/index.js';
import { writeRunReports } from '../../reports/write-run-reports.js';
import { makeCell, makeRunResult } from '../../test/make-run-result.js';
import { readResultsFile } from './results-file.js';

let dir: string;
const result = makeRunResult();

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mem-evidence-'));
  await writeRunReports(join(dir, 'report'), result, { inputs: [], rootDir: dir });
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A copy of the report's results.json in a folder of its own, with `evidence` as its results.full.json.gz (or none). */
async function makeFolder(name: string, evidence?: Buffer): Promise<string> {
  const folder = join(dir, name);
  await writeRunReports(folder, result, { inputs: [], rootDir: dir });
  if (evidence === undefined) await rm(join(folder, 'results.full.json.gz'));
  else await writeFile(join(folder, 'results.full.json.gz'), evidence);
  return join(folder, 'results.json');
}

describe('reading results.json (results@2) with its evidence', () => {
  it('gives the whole model, as results@1 was read before', async () => {
    const read = await readResultsFile(join(dir, 'report', 'results.json'));
    expect(read.format).toBe('mcp-error-matrix/results@1');
    expect(read.cells).toHaveLength(result.cells.length);
    expect(read.cells[0]!.recording).toEqual(result.cells[0]!.recording);
    expect(read.cells.map((cell) => cell.repro)).toEqual(result.cells.map((cell) => cell.repro));
  });

  it('still reads a results@1 file of an earlier version', async () => {
    await writeFile(join(dir, 'old.json'), renderFull(result));
    expect((await readResultsFile(join(dir, 'old.json'))).cells).toHaveLength(result.cells.length);
  });

  it.each([
    ['missing', undefined, /results\.full\.json\.gz: no such file: .*results\.json keeps its cells' evidence here; copy the report folder whole/],
    ['not gzip', Buffer.from('{"format":"mcp-error-matrix/results@1"}'), /results\.full\.json\.gz: not gzip/],
    ['gzip, not JSON', gzipSync('not json'), /results\.full\.json\.gz: not JSON once decompressed/],
    ['another run', gzipSync(renderFull({ ...result, startedAt: '2020-01-01T00:00:00.000Z' })), /results\.full\.json\.gz: is not the evidence of .*results\.json: it is of the run started 2020-01-01T00:00:00\.000Z/],
    ['other cells', gzipSync(renderFull({ ...result, cells: [makeCell({ status: 'fail' }), ...result.cells.slice(1)] })), /cell 1 is baseline · reference · 2025-11-25 \(fail\) there, baseline · reference · 2025-11-25 \(pass\) in results\.json/],
    ['not results@1', gzipSync(JSON.stringify({ format: 'x' })), /results\.full\.json\.gz: does not match schemas\/results\.schema\.json/],
  ])('refuses evidence that is %s, naming the file', async (name, evidence, message) => {
    const file = await makeFolder(name.replace(/\W/g, '-'), evidence);
    await expect(readResultsFile(file)).rejects.toThrow(message);
  });

  it('refuses evidence that decompresses past the results cap (512 MiB; 1 MiB here), without decompressing it all', async () => {
    // 4 MiB of spaces is 4 KB of gzip: a bomb, stopped at the cap.
    const bomb = gzipSync(Buffer.alloc(4 * 1024 * 1024, ' '));
    const file = await makeFolder('bomb', bomb);
    await expect(readResultsFile(file, file, { maxBytes: 1024 * 1024 })).rejects.toThrow(/results\.full\.json\.gz: decompresses to more than the 1 MiB cap/);
  });

  it('reads an index copied elsewhere together with its evidence', async () => {
    const elsewhere = await mkdtemp(join(dir, 'copy-'));
    await copyFile(join(dir, 'report', 'results.json'), join(elsewhere, 'results.json'));
    await copyFile(join(dir, 'report', 'results.full.json.gz'), join(elsewhere, 'results.full.json.gz'));
    expect((await readResultsFile(join(elsewhere, 'results.json'))).cells).toHaveLength(result.cells.length);
    expect(JSON.parse(await readFile(join(elsewhere, 'results.json'), 'utf8')).evidence.file).toBe('results.full.json.gz');
  });
});
