// Captures a stream with a size cap: the start and the end are kept, the middle is cut with
// a note, so a flooding client cannot exhaust memory and its last line (the verdict) survives.

const TAIL_BYTES = 64 * 1024;

export interface OutputCapture {
  push(chunk: Buffer): void;
  finish(): { text: string; lastLine: string; truncatedBytes: number };
}

/** Keeps the first `maxBytes` and the last 64 KiB of everything pushed. */
export function createOutputCapture(maxBytes: number): OutputCapture {
  const head: Buffer[] = [];
  let headBytes = 0;
  const tailChunks: Buffer[] = [];
  let tailBytes = 0;
  let total = 0;
  return {
    push(chunk) {
      total += chunk.length;
      const room = maxBytes - headBytes;
      if (room > 0) {
        const kept = chunk.subarray(0, room);
        head.push(kept);
        headBytes += kept.length;
      }
      tailChunks.push(chunk);
      tailBytes += chunk.length;
      // Drop whole chunks from the front while what remains still covers the last TAIL_BYTES.
      while (tailBytes - tailChunks[0]!.length >= TAIL_BYTES) tailBytes -= tailChunks.shift()!.length;
    },
    finish() {
      const headBuffer = Buffer.concat(head);
      const tail = Buffer.concat(tailChunks).subarray(-TAIL_BYTES);
      const tailText = tail.toString('utf8');
      const lastLine = getLastLine(total <= maxBytes ? headBuffer.toString('utf8') : tailText);
      if (total <= maxBytes) return { text: headBuffer.toString('utf8'), lastLine, truncatedBytes: 0 };
      const tailKept = Math.min(tail.length, total - maxBytes, TAIL_BYTES);
      const cut = total - maxBytes - tailKept;
      const ending = tail.subarray(tail.length - tailKept).toString('utf8');
      const note = cut > 0 ? `\n[… ${cut} bytes cut: output is capped at ${maxBytes} bytes plus the last ${TAIL_BYTES} …]\n` : '';
      return { text: `${headBuffer.toString('utf8')}${note}${ending}`, lastLine, truncatedBytes: cut };
    },
  };
}

function getLastLine(text: string): string {
  const lines = text.split(/\r?\n/);
  for (let index = lines.length - 1; index >= 0; index--) {
    const line = lines[index]!.trim();
    if (line !== '') return line;
  }
  return '';
}
