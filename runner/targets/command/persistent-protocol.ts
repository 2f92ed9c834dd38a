// The persistent command protocol (`command:… #persistent`), runner side: what goes to the
// client's stdin and how a line from its stdout is read. docs/targets.md § "The persistent lane" is
// the contract; this file is its executable form.
//
// runner → client, one JSON object per line:
//   {"type":"cell","cell":"c7","case":"…","protocolVersion":"…","serverUrl":"…","tool":"…","arguments":{…},"calls":1,"timeoutMs":2000}
//   {"type":"cancel","cell":"c7"}  the cell's time is up; an answer that still comes is ignored
//   end of input                    the run is over: finish and exit
// client → runner, one JSON object per line:
//   {"cell":"c7","verdict":{…}} | {"cell":"c7","verdicts":[…]} | {"cell":"c7","skip":"reason"}
// A stdout line that does not start with `{` is log output and is ignored.
import { DEFAULT_TOOL } from '../../cases/case-types.js';
import type { TargetContext } from '../../vocabulary/types.js';

/** The protocol's name and version, given to the client as MCP_MATRIX_PERSISTENT. */
export const PERSISTENT_PROTOCOL = 'mcp-error-matrix/persistent@1';

/** The longest line a client may write; longer is a protocol violation (a flood), not a report. */
export const MAX_ANSWER_LINE_CHARS = 256 * 1024;

export interface CellMessage {
  type: 'cell';
  cell: string;
  case: string;
  protocolVersion: string;
  serverUrl: string;
  tool: string;
  arguments: Record<string, unknown>;
  calls: number;
  timeoutMs: number;
}

/** The line that hands one cell to the client. */
export function formatCellLine(cell: string, context: TargetContext, serverUrl: string): string {
  const tool = context.case.tool ?? DEFAULT_TOOL;
  const message: CellMessage = {
    type: 'cell',
    cell,
    case: context.case.id,
    protocolVersion: context.protocolVersion,
    serverUrl,
    tool: tool.name,
    arguments: (tool.arguments ?? {}) as Record<string, unknown>,
    calls: context.case.client?.calls ?? 1,
    // The same hint as MCP_MATRIX_TIMEOUT_MS in the one-process mode: the per-request timeout.
    timeoutMs: context.timeoutMs,
  };
  return `${JSON.stringify(message)}\n`;
}

/** The line that tells the client a cell's time is up. */
export function formatCancelLine(cell: string): string {
  return `${JSON.stringify({ type: 'cancel', cell })}\n`;
}

export type AnswerLine =
  | { kind: 'log' }
  | { kind: 'answer'; cell: string; report: unknown }
  | { kind: 'violation'; problem: string };

/**
 * Reads one complete stdout line. `report` is what the one-process mode would have read from the
 * verdict file: a verdict, an array of verdicts, or `{ skip }`, judged by the same reader.
 */
export function readAnswerLine(line: string): AnswerLine {
  const text = line.trim();
  if (!text.startsWith('{')) return { kind: 'log' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { kind: 'violation', problem: `a line starting with "{" is not JSON (${(error as Error).message}): ${clip(text)}` };
  }
  // JSON text that starts with "{" is an object: never null, an array or a primitive.
  const answer = value as Record<string, unknown>;
  if (typeof answer.cell !== 'string' || answer.cell === '') return { kind: 'violation', problem: `an answer without a "cell" string: ${clip(text)}` };
  const keys = ['verdict', 'verdicts', 'skip'].filter((key) => key in answer);
  if (keys.length !== 1) {
    return { kind: 'violation', problem: `the answer for cell ${answer.cell} must have exactly one of "verdict", "verdicts", "skip" (it has ${keys.length === 0 ? 'none' : keys.join(', ')})` };
  }
  const key = keys[0]!;
  if (key === 'verdicts' && !Array.isArray(answer.verdicts)) return { kind: 'violation', problem: `"verdicts" of cell ${answer.cell} is not an array` };
  const report = key === 'skip' ? { skip: answer.skip } : answer[key];
  return { kind: 'answer', cell: answer.cell, report };
}

/**
 * Splits a byte stream into lines with a cap: a line longer than `maxChars` (a flood) is
 * reported once as `overflow` and the splitter stops, so memory stays bounded whatever comes.
 */
export class LineSplitter {
  private buffer = '';
  private readonly decoder = new TextDecoder();
  private stopped = false;

  constructor(
    private readonly maxChars: number,
    private readonly onLine: (line: string) => void,
    private readonly onOverflow: (length: number) => void,
  ) {}

  push(chunk: Uint8Array): void {
    if (this.stopped) return;
    this.buffer += this.decoder.decode(chunk, { stream: true });
    let newline: number;
    while (!this.stopped && (newline = this.buffer.indexOf('\n')) !== -1) {
      const line = this.buffer.slice(0, newline);
      this.buffer = this.buffer.slice(newline + 1);
      if (line.length > this.maxChars) return this.overflow(line.length);
      this.onLine(line.replace(/\r$/, ''));
    }
    if (this.buffer.length > this.maxChars) this.overflow(this.buffer.length);
  }

  private overflow(length: number): void {
    this.stopped = true;
    this.buffer = '';
    this.onOverflow(length);
  }
}

function clip(text: string): string {
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}
