// Lines from a worker's stdout, each at most `maxBytes`: a line past the cap is dropped as it
// arrives (never held whole) and reported with its first bytes, so a worker that answers with a
// line of hundreds of MB costs the runner nothing (issue 28 item 4: caps on what a target may answer).
import type { Readable } from 'node:stream';

export interface BoundedLinesHandler {
  onLine(line: string): void;
  /** A line longer than the cap: its first bytes (for finding whose answer it was) and its length so far. */
  onOverflow(head: string, bytes: number): void;
}

const HEAD_BYTES = 256;
const NEWLINE = 0x0a;

/** Calls `handler` for each line of `stream` (UTF-8, `\n`-separated; a last line without `\n` counts at the end). */
export function readBoundedLines(stream: Readable, maxBytes: number, handler: BoundedLinesHandler): void {
  let parts: Buffer[] = [];
  let length = 0;
  let overflowing = false;
  let head = '';
  const take = (chunk: Buffer): void => {
    if (overflowing) {
      length += chunk.length;
      return;
    }
    if (length + chunk.length > maxBytes) {
      overflowing = true;
      head = Buffer.concat([...parts, chunk]).subarray(0, HEAD_BYTES).toString('utf8');
      parts = [];
      length += chunk.length;
      return;
    }
    parts.push(chunk);
    length += chunk.length;
  };
  const endLine = (): void => {
    if (overflowing) handler.onOverflow(head, length);
    else handler.onLine(Buffer.concat(parts, length).toString('utf8'));
    parts = [];
    length = 0;
    overflowing = false;
    head = '';
  };
  stream.on('data', (chunk: Buffer) => {
    let start = 0;
    for (let at = chunk.indexOf(NEWLINE); at !== -1; at = chunk.indexOf(NEWLINE, start)) {
      take(chunk.subarray(start, at));
      endLine();
      start = at + 1;
    }
    if (start < chunk.length) take(chunk.subarray(start));
  });
  stream.on('end', () => {
    if (length > 0 || overflowing) endLine();
  });
}
