import { describe, expect, it } from 'vitest';
import { createOutputCapture } from './output-capture.js';

describe('createOutputCapture', () => {
  it('keeps small output whole', () => {
    const capture = createOutputCapture(100);
    capture.push(Buffer.from('hello\n'));
    capture.push(Buffer.from('{"outcome":"TOOL_SUCCESS"}\n\n'));
    expect(capture.finish()).toEqual({ text: 'hello\n{"outcome":"TOOL_SUCCESS"}\n\n', lastLine: '{"outcome":"TOOL_SUCCESS"}', truncatedBytes: 0 });
  });

  it('keeps the start and the end of a flood, cuts the middle with a note, and still finds the last line', () => {
    const capture = createOutputCapture(1024);
    const line = `${'x'.repeat(99)}\n`;
    for (let i = 0; i < 20_000; i++) capture.push(Buffer.from(line));
    capture.push(Buffer.from('{"outcome":"TOOL_ERROR"}\n'));
    const { text, lastLine, truncatedBytes } = capture.finish();
    expect(lastLine).toBe('{"outcome":"TOOL_ERROR"}');
    expect(text.startsWith('x'.repeat(99))).toBe(true);
    expect(text.endsWith('{"outcome":"TOOL_ERROR"}\n')).toBe(true);
    expect(text).toContain(`[… ${truncatedBytes} bytes cut: output is capped at 1024 bytes plus the last 65536 …]`);
    expect(text.length).toBeLessThan(1024 + 65_536 + 200);
    expect(truncatedBytes).toBe(20_000 * 100 + 25 - 1024 - 65_536);
  });
});
