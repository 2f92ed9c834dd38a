// The distinct parts of a large matrix.html's details, kept as the text they are written as, in a
// temporary file of this process rather than in memory: a run of 100,000 distinct cases has about
// as many distinct transcripts, which the page writes only after every row (html-json-script.ts),
// and which held 300 MB until then (issue 28 item 4). Read back in order, once, as chunks.
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const READ_CHUNK_BYTES = 1 << 20;
const open = new Set<string>();
let hooked = false;

/** An append-only file of text pieces, read back in order. */
export class SpilledParts {
  private fd: number | undefined;
  private readonly path: string;
  private end = 0;
  count = 0;

  constructor(dir = tmpdir()) {
    this.path = join(dir, `mcp-error-matrix-parts-${process.pid}-${randomBytes(6).toString('hex')}.json`);
    this.fd = openSync(this.path, 'wx+', 0o600);
    open.add(this.path);
    if (!hooked) {
      hooked = true;
      process.once('exit', () => open.forEach(unlinkQuietly));
    }
  }

  /** Appends the next piece's text. */
  push(text: string): number {
    const bytes = Buffer.from(text);
    let done = 0;
    while (done < bytes.length) done += writeSync(this.fd!, bytes, done, bytes.length - done, this.end + done);
    this.end += bytes.length;
    return this.count++;
  }

  /** Every piece's text in order, in chunks of up to 1 MiB (split only between whole UTF-8 sequences); the file is removed at the end. */
  *read(): Generator<string> {
    const decoder = new TextDecoder('utf-8');
    try {
      const buffer = Buffer.allocUnsafe(READ_CHUNK_BYTES);
      for (let at = 0; at < this.end; ) {
        const bytes = readSync(this.fd!, buffer, 0, Math.min(buffer.length, this.end - at), at);
        at += bytes;
        const text = decoder.decode(buffer.subarray(0, bytes), { stream: at < this.end });
        if (text) yield text;
      }
    } finally {
      this.close();
    }
  }

  close(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
    open.delete(this.path);
    unlinkQuietly(this.path);
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone.
  }
}
