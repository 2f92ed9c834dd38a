// writeContent streams chunks through two alternating buffers, one write in flight while the
// next batch is encoded: the file and its digest must be exactly the joined text, whatever the
// chunk sizes, and a failing iterator must neither leave a write dangling nor hide its error.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeContent } from './write.js';

const dir = mkdtempSync(join(tmpdir(), 'mem-write-content-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Many batches (over 1 MiB each), multi-byte characters across batch edges, and chunks larger
// than a batch in between.
function* makeChunks(): Generator<string> {
  for (let i = 0; i < 6_000; i++) {
    yield `{"i":${i},"text":"é€😀 ${'x'.repeat(i % 977)}"}`;
    if (i % 1_500 === 0) yield `big ${i} ${'ü'.repeat(700_000)}`;
  }
}

describe('writeContent', () => {
  it('writes and hashes exactly the joined chunks, across many batches and oversized chunks', async () => {
    const expected = Buffer.from([...makeChunks()].join(''));
    expect(expected.length).toBeGreaterThan(8 * 2 ** 20);
    const path = join(dir, 'chunks.out');
    const digest = await writeContent(path, makeChunks());
    const written = readFileSync(path);
    expect(written.equals(expected)).toBe(true);
    expect(digest).toEqual({ sha256: createHash('sha256').update(expected).digest('hex'), bytes: expected.length });
  });

  it('passes on the error of a failing iterator after the writes in flight settle', async () => {
    function* failing(): Generator<string> {
      for (let i = 0; i < 3_000; i++) yield 'y'.repeat(1_000);
      throw new Error('render failed');
    }
    await expect(writeContent(join(dir, 'failing.out'), failing())).rejects.toThrow('render failed');
  });
});
