import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { findInvalidUtf8 } from './find-invalid-utf8.js';
import { readUserFile, readUserFileSync, readUserText, UserFileError } from './read-user-file.js';

const dir = mkdtempSync(join(tmpdir(), 'mem-read-user-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const options = { maxBytes: 1024, what: 'test file' };

function fixture(name: string, make: (path: string) => void): string {
  const path = join(dir, name);
  make(path);
  return path;
}

const fifo = fixture('fifo', (path) => execFileSync('mkfifo', [path]));
const regular = fixture('ok.json', (path) => writeFileSync(path, '\uFEFF{"ok": "é"}'));
const big = fixture('big.txt', (path) => writeFileSync(path, 'x'.repeat(1025)));
const loop = fixture('loop.json', (path) => symlinkSync(path, path));
const toZero = fixture('zero.json', (path) => symlinkSync('/dev/zero', path));
const toFifo = fixture('to-fifo.json', (path) => symlinkSync(fifo, path));
const folder = fixture('folder', (path) => mkdirSync(path));
const badUtf8 = fixture('bad.json', (path) => writeFileSync(path, Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d])));

type Reader = (path: string) => Promise<unknown>;
const readers: [string, Reader][] = [
  ['readUserFile', (path) => readUserFile(path, options)],
  ['readUserFileSync', async (path) => readUserFileSync(path, options)],
];

async function refusal(read: Reader, path: string): Promise<UserFileError> {
  const error = await read(path).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UserFileError);
  return error as UserFileError;
}

describe.each(readers)('%s', (_name, read) => {
  test('reads a regular file within the cap', async () => {
    expect(((await read(regular)) as Buffer).length).toBe(15);
  });

  test.each([
    ['a FIFO', fifo, /not a regular file \(it is a FIFO/],
    ['a symlink to a FIFO', toFifo, /not a regular file \(it is a FIFO/],
    ['a symlink to /dev/zero', toZero, /not a regular file \(it is a character device\)/],
    ['a folder', folder, /not a regular file \(it is a folder\)/],
  ])('refuses %s at once, naming what it is (never blocks on open)', { timeout: 5000 }, async (_what, path, message) => {
    const error = await refusal(read, path);
    expect(error.problem).toBe('not-regular');
    expect(error.message).toContain(path);
    expect(error.message).toMatch(message);
  });

  test('refuses a file over the cap, stating the cap', async () => {
    const error = await refusal(read, big);
    expect(error.problem).toBe('too-large');
    expect(error.message).toMatch(/larger than the 1 KiB cap \(1025 bytes\)/);
  });

  test('says "symlink loop" for a link that points at itself', async () => {
    const error = await refusal(read, loop);
    expect(error.problem).toBe('symlink-loop');
    expect(error.message).toContain('symlink loop');
  });

  test('says a missing file is missing', async () => {
    expect((await refusal(read, join(dir, 'absent.json'))).problem).toBe('missing');
  });
});

describe('strict UTF-8 text', () => {
  test('decodes UTF-8 and drops a leading BOM', async () => {
    expect(await readUserText(regular, options)).toBe('{"ok": "é"}');
  });

  test('refuses invalid UTF-8, naming the byte offset', async () => {
    await expect(readUserText(badUtf8, options)).rejects.toThrow(/not valid UTF-8 \(invalid byte 0xc3 at byte offset 6\)/);
  });

  test.each([
    ['ascii', [0x41, 0x42], undefined],
    ['two-byte', [0xc3, 0xa9], undefined],
    ['four-byte', [0xf0, 0x9f, 0x98, 0x80], undefined],
    ['lone continuation', [0x41, 0x80], 1],
    ['overlong', [0x41, 0xc0, 0xaf], 1],
    ['surrogate', [0xed, 0xa0, 0x80], 0],
    ['beyond U+10FFFF', [0xf4, 0x90, 0x80, 0x80], 0],
    ['truncated at the end', [0x41, 0x42, 0xe2, 0x82], 2],
  ])('findInvalidUtf8: %s', (_name, bytes, offset) => {
    expect(findInvalidUtf8(Uint8Array.from(bytes))).toBe(offset);
  });
});
