import { describe, expect, it } from 'vitest';
import { LineSplitter, readAnswerLine } from './persistent-protocol.js';

describe('readAnswerLine', () => {
  it.each([
    ['a log line', 'starting client...', { kind: 'log' }],
    ['one verdict', '{"cell":"c1","verdict":{"outcome":"TOOL_SUCCESS"}}', { kind: 'answer', cell: 'c1', report: { outcome: 'TOOL_SUCCESS' } }],
    ['verdicts', '{"cell":"c2","verdicts":[null,{"outcome":"TOOL_ERROR"}]}', { kind: 'answer', cell: 'c2', report: [null, { outcome: 'TOOL_ERROR' }] }],
    ['a skip', '{"cell":"c3","skip":"no 2025-11-25 here"}', { kind: 'answer', cell: 'c3', report: { skip: 'no 2025-11-25 here' } }],
    ['a null verdict (nothing concluded)', '{"cell":"c4","verdict":null}', { kind: 'answer', cell: 'c4', report: null }],
  ])('reads %s', (_name, line, expected) => {
    expect(readAnswerLine(line)).toEqual(expected);
  });

  it.each([
    ['broken JSON', '{"cell":', 'is not JSON'],
    ['no answer at all', '{"cell":"c1"} ', 'exactly one of'],
    ['no cell', '{"verdict":{"outcome":"TOOL_SUCCESS"}}', 'without a "cell" string'],
    ['an empty cell id', '{"cell":"","verdict":{}}', 'without a "cell" string'],
    ['two answers in one', '{"cell":"c1","verdict":{},"skip":"x"}', 'it has verdict, skip'],
    ['verdicts that are not a list', '{"cell":"c1","verdicts":{}}', 'is not an array'],
  ])('calls %s a protocol violation', (_name, line, problem) => {
    const read = readAnswerLine(line);
    expect(read.kind).toBe('violation');
    expect(read.kind === 'violation' && read.problem).toContain(problem);
  });
});

describe('LineSplitter', () => {
  const split = (chunks: string[], max = 10): { lines: string[]; overflow: number[] } => {
    const lines: string[] = [];
    const overflow: number[] = [];
    const splitter = new LineSplitter(max, (line) => lines.push(line), (length) => overflow.push(length));
    for (const chunk of chunks) splitter.push(Buffer.from(chunk));
    return { lines, overflow };
  };

  it('joins lines split across chunks, strips CR, and decodes UTF-8 split mid-character', () => {
    const euro = Buffer.from('€');
    const lines: string[] = [];
    const splitter = new LineSplitter(100, (line) => lines.push(line), () => {});
    splitter.push(Buffer.from('ab'));
    splitter.push(Buffer.concat([Buffer.from('c\r\nx'), euro.subarray(0, 1)]));
    splitter.push(Buffer.concat([euro.subarray(1), Buffer.from('\n')]));
    expect(lines).toEqual(['abc', 'x€']);
  });

  it('stops at a line over the cap, complete or not, and reads nothing after it', () => {
    expect(split(['0123456789\n'])).toEqual({ lines: ['0123456789'], overflow: [] });
    expect(split(['01234567890\nok\n'])).toEqual({ lines: [], overflow: [11] });
    expect(split(['0123456', '7890', 'more\nok\n'])).toEqual({ lines: [], overflow: [11] });
  });
});

describe('a command target and the default concurrency', () => {
  it('starts a process per cell unless it is #persistent', async () => {
    const { resolveCommandTarget } = await import('../command-target.js');
    expect(resolveCommandTarget('command:node c.mjs', { cwd: '/' }).startsProcessPerCell).toBe(true);
    expect(resolveCommandTarget('command:node c.mjs #persistent', { cwd: '/' }).startsProcessPerCell).toBe(false);
  });
});
