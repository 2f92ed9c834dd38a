// `compare` and `run --compare` read results.json streamed (issue 28 item 4): the same answers and
// the same refusals as reading the whole file, with the memory of one cell at a time.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { render } from '../../reports/formats/index.js';
import { renderFull, renderFullGzipChunks } from '../../reports/formats/index.js';
import type { RunResult } from '../vocabulary/types.js';
import { makeHostileRunResult, makeRunResult, makeSyntheticRunResult } from '../../test/make-run-result.js';
import { readResultsDigest } from './read-results-digest.js';
import { readResultsFile, ResultsFileError } from './results-file.js';
import { JsonMembersScanner, JsonScanError } from './scan-json-members.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mem-results-digest-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const write = async (name: string, text: string | Buffer): Promise<string> => {
  const file = join(dir, name);
  await writeFile(file, text);
  return file;
};

/** The digest readResultsFile's whole document gives. */
async function digestOfWhole(file: string) {
  const whole = await readResultsFile(file);
  return {
    ...whole,
    cases: whole.cases.map(({ id, sha256 }) => ({ id, sha256 })),
    cells: whole.cells.map(({ case: caseId, target, protocolVersion, status }) => ({ case: caseId, target, protocolVersion, status })),
  };
}

/** results.json (an index since results@2) and results.full.json.gz, as a report folder holds them. */
function renderIndexAndEvidence(result: RunResult): { index: string; evidence: Buffer } {
  return { index: render(result), evidence: Buffer.concat([...renderFullGzipChunks(result)]) };
}

/** Writes results.json and its evidence into a folder of their own; returns results.json's path. */
async function writeFolder(name: string, index: string, evidence?: Buffer): Promise<string> {
  const folder = join(dir, name);
  await mkdir(folder, { recursive: true });
  await writeFile(join(folder, 'results.json'), index);
  if (evidence) await writeFile(join(folder, 'results.full.json.gz'), evidence);
  return join(folder, 'results.json');
}

describe('readResultsDigest', () => {
  it.each([
    ['the report fixture', () => makeRunResult()],
    ['hostile text (escapes, quotes, brackets and control characters in strings)', () => makeHostileRunResult()],
    ['a synthetic matrix of 2,000 cells', () => makeSyntheticRunResult({ cases: 25, targets: 20 })],
  ])('reads %s as the whole document does: results.json with its evidence, and a results@1 file of an earlier version', async (title, make) => {
    const result = make();
    const { index, evidence } = renderIndexAndEvidence(result);
    const file = await writeFolder(`written-${title.length}`, index, evidence);
    expect(await readResultsDigest(file)).toEqual(await digestOfWhole(file));
    const legacy = await write(`legacy-${title.length}.json`, renderFull(result));
    expect(await readResultsDigest(legacy)).toEqual(await digestOfWhole(legacy));
  });

  it('reads the same compact JSON, with a byte-order mark and members in any order', async () => {
    const { cells, ...rest } = makeRunResult();
    const reordered = { cells, ...rest };
    const file = await write('compact.json', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(reordered))]));
    const digest = await readResultsDigest(file);
    expect(digest.cells).toEqual(cells.map(({ case: caseId, target, protocolVersion, status }) => ({ case: caseId, target, protocolVersion, status })));
    expect(digest.summary).toEqual(rest.summary);
  });

  it.each([
    ['cut short', (text: string) => text.slice(0, text.length / 2), /^broken\.json: (not JSON|not JSON of the expected shape at byte \d+: the document ends early)/],
    ['a trailing comma', (text: string) => text.replace(/}\s*$/, ',}'), /^broken\.json: not JSON of the expected shape at byte \d+: expected a member name in double quotes/],
    ['something after the end', (text: string) => `${text} {}`, /^broken\.json: not JSON of the expected shape at byte \d+: expected nothing after the end of the document/],
    ['cells that are not an array', (text: string) => text.replace(/"cells": \[/, '"cells": {"x": ['), /"cells" must be an array/],
    ['a cell that is not JSON', (text: string) => text.replace(/"status":"pass"/, '"status":pass'), /^broken\.json: not JSON \(in \/cells\/\d+: /],
    ['a cell with an unknown status', (text: string) => text.replace(/"status":"pass"/, '"status":"passed"'), /^broken\.json: does not match schemas\/results-v2\.schema\.json:\n {2}- \/cells\/\d+\/status: /],
    ['a missing summary', (text: string) => text.replace(/,\s*"summary": \{[^}]*\}/, ''), /^broken\.json: does not match schemas\/results-v2\.schema\.json:\n {2}- \/summary: missing required field "summary"/],
    ['another format', (text: string) => text.replace('mcp-error-matrix/results@2', 'mcp-error-matrix/results@9'), /^broken\.json: format is "mcp-error-matrix\/results@9"/],
  ])('refuses %s, naming the file and where', async (title, mutate, message) => {
    const { index, evidence } = renderIndexAndEvidence(makeRunResult());
    const mutated = mutate(index);
    expect(mutated).not.toBe(index);
    const file = await writeFolder(`broken-${title.replace(/\W+/g, '-')}`, mutated, evidence);
    const error: unknown = await readResultsDigest(file, 'broken.json').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResultsFileError);
    expect((error as Error).message).toMatch(message);
  });

  it("refuses an index whose evidence is missing, not gzip, a gzip bomb, another run's or edited, naming the evidence file", async () => {
    const result = makeRunResult();
    const { index, evidence } = renderIndexAndEvidence(result);
    const refusal = async (name: string, bytes?: Buffer, maxBytes?: number) => {
      const file = await writeFolder(name, index, bytes);
      const error: unknown = await readResultsDigest(file, `${name}/results.json`, maxBytes ? { maxBytes } : {}).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ResultsFileError);
      return (error as Error).message;
    };
    expect(await refusal('no-evidence')).toMatch(/^no-evidence\/results\.full\.json\.gz: no such file: no-evidence\/results\.json keeps its cells' evidence here; copy the report folder whole/);
    expect(await refusal('not-gzip', Buffer.from('plain text'))).toMatch(/^not-gzip\/results\.full\.json\.gz: not gzip/);
    // Valid JSON as far as it goes (whitespace between members), 8 MiB of it in 8 KB: decompression stops at the cap.
    const bomb = gzipSync(Buffer.concat([Buffer.from('{"format":"mcp-error-matrix/results@1"'), Buffer.alloc(8 * 1024 * 1024, 0x20), Buffer.from('}')]));
    expect(await refusal('bomb', bomb, 1024 * 1024)).toMatch(/^bomb\/results\.full\.json\.gz: decompresses to more than the 1 MiB cap/);
    expect(await refusal('zeros', gzipSync(Buffer.alloc(1024 * 1024)))).toMatch(/^zeros\/results\.full\.json\.gz: not JSON of the expected shape at byte 0: .* once decompressed/);
    const other = renderIndexAndEvidence({ ...result, startedAt: '2020-01-01T00:00:00.000Z' }).evidence;
    expect(await refusal('other-run', other)).toMatch(/^other-run\/results\.full\.json\.gz: is not the evidence of other-run\/results\.json: it is of the run started 2020-01-01/);
    // The evidence edited fail → pass (the index says fail): named with the cell.
    const failing = result.cells.findIndex((cell) => cell.status !== 'pass');
    const edited = renderIndexAndEvidence({ ...result, cells: result.cells.map((cell, i) => (i === failing ? { ...cell, status: 'pass' as const } : cell)) }).evidence;
    expect(await refusal('edited', edited)).toMatch(new RegExp(`^edited/results\\.full\\.json\\.gz: is not the evidence of edited/results\\.json: cell ${failing + 1} is .* \\(pass\\) there`));
    // Each refusal is the whole-file reader's too.
    await expect(readResultsFile(join(dir, 'edited', 'results.json'))).rejects.toThrow(/is not the evidence of/);
  }, 60_000);

  it('refuses bytes that are not UTF-8, a folder and a missing file as the whole-file reader does', async () => {
    const json = renderFull(makeRunResult());
    const latin1 = await write('latin1.json', Buffer.from(json.replace('"status":"pass"', '"status":"pass","reason":"caf\u00e9"'), 'latin1'));
    await expect(readResultsDigest(latin1, 'latin1.json')).rejects.toThrow(/^latin1\.json: is not valid UTF-8 \(in \/[a-z]+/);
    await expect(readResultsDigest(dir, 'the-folder')).rejects.toThrow(/^the-folder: is a folder; give its results\.json$/);
    await expect(readResultsDigest(join(dir, 'absent.json'), 'absent.json')).rejects.toThrow(/^absent\.json: no such file/);
  });
});

describe('JsonMembersScanner', () => {
  const scan = (text: string, chunkBytes: number, maxValueBytes = 1024) => {
    const members: [string, string][] = [];
    const elements: [string, number, string][] = [];
    const scanner = new JsonMembersScanner(
      { onMember: (key, bytes) => members.push([key, bytes.toString()]), onElement: (key, bytes, index) => elements.push([key, index, bytes.toString()]) },
      { streamed: new Set(['cells']), maxValueBytes },
    );
    const bytes = Buffer.from(text);
    for (let at = 0; at < bytes.length; at += chunkBytes) scanner.feed(bytes.subarray(at, at + chunkBytes));
    scanner.end();
    return { members, elements };
  };
  const text = '{ "a\\"b": "x}]\\\\", "n": -1.5e3, "cells": [ {"k": "]"}, 7 , "s", [[]], null ], "t": true, "o": {"p": [1, {"q": "}"}]} }';

  it.each([1, 2, 3, 7, 64, 4096])('finds every member and element whatever the chunk size (%i bytes)', (chunk) => {
    expect(scan(text, chunk)).toEqual({
      members: [
        ['a"b', '"x}]\\\\"'],
        ['n', '-1.5e3'],
        ['t', 'true'],
        ['o', '{"p": [1, {"q": "}"}]}'],
      ],
      elements: [
        ['cells', 0, '{"k": "]"}'],
        ['cells', 1, '7'],
        ['cells', 2, '"s"'],
        ['cells', 3, '[[]]'],
        ['cells', 4, 'null'],
      ],
    });
  });

  it('refuses a value past its cap before holding more of it', () => {
    expect(() => scan('{"cells": ["short", "' + 'x'.repeat(200) + '"]}', 16, 100)).toThrow(new JsonScanError('element 1 of "cells" is larger than the 100 bytes one may have'));
    expect(() => scan('{"big": "' + 'x'.repeat(200) + '"}', 16, 100)).toThrow(/the value of "big" is larger than the 100 bytes one may have/);
  });
});
