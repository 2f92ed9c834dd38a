import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readBoundedLines } from './read-bounded-lines.js';

/** Feeds `chunks` to a stream read with a cap of `max` bytes per line; returns what the handler heard. */
async function read(chunks: (string | Buffer)[], max: number) {
  const heard: string[] = [];
  const stream = new PassThrough();
  readBoundedLines(stream, max, { onLine: (line) => heard.push(`line ${line}`), onOverflow: (head, bytes) => heard.push(`overflow ${bytes} ${head}`) });
  const ended = new Promise((resolve) => stream.on('end', resolve));
  for (const chunk of chunks) stream.write(chunk);
  stream.end();
  stream.resume();
  await ended;
  return heard;
}

describe('readBoundedLines: a worker answer past the cap is dropped, not held', () => {
  it('splits lines across chunks, multi-byte characters included, and reads a last line without a newline', async () => {
    const euro = Buffer.from('€');
    expect(await read(['{"a"', ':1}\n{"b":2}\n', Buffer.concat([Buffer.from('x'), euro.subarray(0, 1)]), Buffer.concat([euro.subarray(1), Buffer.from('\nlast')])], 100)).toEqual([
      'line {"a":1}',
      'line {"b":2}',
      'line x€',
      'line last',
    ]);
  });

  it('reports a line past the cap with its first bytes and its length, and goes on with the next line', async () => {
    const long = `{"id":7,"notes":["${'n'.repeat(300)}"]}`;
    const heard = await read([long.slice(0, 50), long.slice(50), '\n{"id":8}\n'], 64);
    expect(heard).toHaveLength(2);
    expect(heard[0]).toMatch(new RegExp(`^overflow ${long.length} \\{"id":7,"notes":\\["n+$`));
    expect(heard[1]).toBe('line {"id":8}');
  });
});
