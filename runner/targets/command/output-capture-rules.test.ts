// A client's captured output (output-capture.ts), rule by rule at its edges: exactly what is kept,
// what the note says is cut, and which line is the last one.
import { describe, expect, it } from 'vitest';
import { createOutputCapture } from './output-capture.js';

const TAIL = 64 * 1024;
const capture = (maxBytes: number, ...chunks: string[]) => {
  const output = createOutputCapture(maxBytes);
  for (const chunk of chunks) output.push(Buffer.from(chunk));
  return output.finish();
};

describe('what is kept', () => {
  it('output of exactly the cap is kept whole, its last line whole even past the last 64 KiB', () => {
    const line = `{"v":"${'x'.repeat(100 * 1024 - 8)}"}`;
    expect(line.length).toBe(100 * 1024);
    expect(capture(100 * 1024, line)).toEqual({ text: line, lastLine: line, truncatedBytes: 0 });
  });

  it('one byte past the cap is kept too, with no note: nothing was cut', () => {
    expect(capture(10, '0123456789', 'A')).toEqual({ text: '0123456789A', lastLine: '0123456789A', truncatedBytes: 0 });
  });

  it('past the cap and the last 64 KiB: the start, a note with the bytes cut, and the end, exactly', () => {
    const end = 'y'.repeat(TAIL - 4) + 'END\n';
    const { text, truncatedBytes } = capture(10, '0123456789', 'cutcut', 'x'.repeat(100), end);
    expect(truncatedBytes).toBe(106);
    expect(text).toBe(`0123456789\n[… 106 bytes cut: output is capped at 10 bytes plus the last ${TAIL} …]\n${end}`);
  });
});

describe('the last line', () => {
  it('is the last line that is not blank, trimmed, even when it is the first', () => {
    expect(capture(100, '  {"outcome":"TOOL_SUCCESS"}  \r\n', '\n', '   \n').lastLine).toBe('{"outcome":"TOOL_SUCCESS"}');
  });

  it('of output that is all blank, or none, is empty', () => {
    expect(capture(100, ' \n\n').lastLine).toBe('');
    expect(capture(100).lastLine).toBe('');
  });
});
