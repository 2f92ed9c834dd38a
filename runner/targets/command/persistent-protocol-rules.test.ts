// The persistent lane's protocol (persistent-protocol.ts), rule by rule: the exact lines a client
// is given, what of its stdout is an answer, and how a flood is stopped once.
import { describe, expect, it } from 'vitest';
import { DEFAULT_TOOL, type Case } from '../../cases/case-types.js';
import type { TargetContext } from '../../vocabulary/types.js';
import { formatCancelLine, formatCellLine, LineSplitter, readAnswerLine } from './persistent-protocol.js';

const contextOf = (extra: Partial<Case>): TargetContext => ({ case: { id: 'a-case', ...extra } as unknown as Case, protocolVersion: '2025-11-25', timeoutMs: 2000 }) as TargetContext;

describe('the lines a client is given', () => {
  it("a cell: the case's tool and arguments and calls, else the default tool, no arguments and one call", () => {
    expect(formatCellLine('c1', contextOf({}), 'http://127.0.0.1:1/mcp')).toBe(
      `${JSON.stringify({ type: 'cell', cell: 'c1', case: 'a-case', protocolVersion: '2025-11-25', serverUrl: 'http://127.0.0.1:1/mcp', tool: DEFAULT_TOOL.name, arguments: DEFAULT_TOOL.arguments ?? {}, calls: 1, timeoutMs: 2000 })}\n`,
    );
    const line = formatCellLine('c2', contextOf({ tool: { name: 'search', arguments: { q: 'x' } }, client: { calls: 2 } } as Partial<Case>), 'http://h/mcp');
    expect(JSON.parse(line)).toMatchObject({ type: 'cell', cell: 'c2', tool: 'search', arguments: { q: 'x' }, calls: 2 });
    expect(line.endsWith('}\n')).toBe(true);
  });

  it('a cancel names the cell, on a line of its own', () => {
    expect(formatCancelLine('c7')).toBe('{"type":"cancel","cell":"c7"}\n');
  });
});

describe('what of its stdout is an answer', () => {
  it('an answer line is read with white space around it', () => {
    expect(readAnswerLine('  {"cell":"c1","verdict":null}  ')).toEqual({ kind: 'answer', cell: 'c1', report: null });
  });

  it('an answer with none of verdict, verdicts and skip says it has none', () => {
    expect(readAnswerLine('{"cell":"c1"}')).toEqual({ kind: 'violation', problem: 'the answer for cell c1 must have exactly one of "verdict", "verdicts", "skip" (it has none)' });
  });

  it('a broken line is quoted whole up to 200 characters, and cut to 200 with a marker past them', () => {
    const at = `{${'x'.repeat(199)}`;
    const atProblem = (readAnswerLine(at) as { problem: string }).problem;
    expect(atProblem.endsWith(`: ${at}`)).toBe(true);
    const past = `{${'x'.repeat(200)}`;
    const pastProblem = (readAnswerLine(past) as { problem: string }).problem;
    expect(pastProblem.endsWith(`: ${past.slice(0, 197)}...`)).toBe(true);
  });
});

describe('LineSplitter', () => {
  const run = (chunks: string[], max = 10) => {
    const lines: string[] = [];
    const overflow: number[] = [];
    const splitter = new LineSplitter(max, (line) => lines.push(line), (length) => overflow.push(length));
    for (const chunk of chunks) splitter.push(Buffer.from(chunk));
    return { lines, overflow };
  };

  it('a line of exactly the cap, arriving before its newline, is read', () => {
    expect(run(['0123456789', '\n'])).toEqual({ lines: ['0123456789'], overflow: [] });
  });

  it('strips only the carriage return that ends a line', () => {
    expect(run(['a\rb\r\n'])).toEqual({ lines: ['a\rb'], overflow: [] });
  });

  it('reports a flood once, whatever comes after it', () => {
    expect(run(['0123456789012', 'more text past the cap again', '\nok\n'])).toEqual({ lines: [], overflow: [13] });
  });
});
