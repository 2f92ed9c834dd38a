// `compare` and `run --compare` read results.json streamed (issue 28 item 4): the same answers and
// the same refusals as reading the whole file, with the memory of one cell at a time.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderReports } from '../../reports/index.js';
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

describe('readResultsDigest', () => {
  it.each([
    ['the report fixture', () => makeRunResult()],
    ['hostile text (escapes, quotes, brackets and control characters in strings)', () => makeHostileRunResult()],
    ['a synthetic matrix of 2,000 cells', () => makeSyntheticRunResult({ cases: 25, targets: 20 })],
  ])('reads %s as the whole document does, written by the results.json writer', async (_title, make) => {
    const json = renderReports(make()).find((file) => file.name === 'results.json')!.content;
    const file = await write('written.json', json);
    expect(await readResultsDigest(file)).toEqual(await digestOfWhole(file));
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
    ['a cell that is not JSON', (text: string) => text.replace(/"status": "pass"/, '"status": pass'), /^broken\.json: not JSON \(in \/cells\/\d+: /],
    ['a cell with an unknown status', (text: string) => text.replace(/"status": "pass"/, '"status": "passed"'), /^broken\.json: does not match schemas\/results\.schema\.json:\n {2}- \/cells\/\d+\/status: /],
    ['a missing summary', (text: string) => text.replace(/,\s*"summary": \{[^}]*\}/, ''), /^broken\.json: does not match schemas\/results\.schema\.json:\n {2}- \/summary: missing required field "summary"/],
    ['another format', (text: string) => text.replace('mcp-error-matrix/results@1', 'mcp-error-matrix/results@9'), /^broken\.json: format is "mcp-error-matrix\/results@9"/],
  ])('refuses %s, naming the file and where', async (_title, mutate, message) => {
    const json = renderReports(makeRunResult()).find((f) => f.name === 'results.json')!.content;
    const file = await write('broken.json', mutate(json));
    const error: unknown = await readResultsDigest(file, 'broken.json').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResultsFileError);
    expect((error as Error).message).toMatch(message);
  });

  it('refuses bytes that are not UTF-8, a folder and a missing file as the whole-file reader does', async () => {
    const json = renderReports(makeRunResult()).find((f) => f.name === 'results.json')!.content;
    const latin1 = await write('latin1.json', Buffer.from(json.replace('"status": "pass"', '"status": "pass", "reason": "caf\u00e9"'), 'latin1'));
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
