// The reader of OUTCOMES.md's outcome table, one rule at a time on small hand-written tables (the
// real document is held to the code in outcomes-table.test.ts).
import { describe, expect, it } from 'vitest';
import { readOutcomesTable } from './read-outcomes-table.js';

const HEADER = '| Outcome | Layer | When | Recovery | Rationale |\n|---|---|---|---|---|';
const row = (outcome: string, recovery: string) => `| \`${outcome}\` | tool | when | ${recovery} | why |`;
const table = (...rows: string[]) => [HEADER, ...rows].join('\n');

describe('readOutcomesTable', () => {
  it('reads whether a final result exists and the plain replay advice, in document order', () => {
    expect(readOutcomesTable(table(row('TOOL_ERROR', '`true`, `no`'), row('NO_RESPONSE', '`false`, `if_idempotent`')))).toEqual([
      { outcome: 'TOOL_ERROR', hasFinalResult: true, replay: 'no', replayByCode: {} },
      { outcome: 'NO_RESPONSE', hasFinalResult: false, replay: 'if_idempotent', replayByCode: {} },
    ]);
  });

  it('reads advice that depends on the JSON-RPC code: the named code gets the first, every other code the second', () => {
    expect(readOutcomesTable(table(row('JSONRPC_ERROR', '`true`, `after_fixing_arguments` for -32602, else `no`')))).toEqual([
      { outcome: 'JSONRPC_ERROR', hasFinalResult: true, replay: 'no', replayByCode: { [-32602]: 'after_fixing_arguments' } },
    ]);
    expect(readOutcomesTable(table(row('JSONRPC_ERROR', '`false`, `follow_up` for 7, else `if_idempotent`')))).toEqual([
      { outcome: 'JSONRPC_ERROR', hasFinalResult: false, replay: 'if_idempotent', replayByCode: { 7: 'follow_up' } },
    ]);
  });

  it('trims the cells and skips every line that is not a row of a known outcome with all five columns', () => {
    const text = table(
      '|   `TOOL_SUCCESS`   | tool | when |   `true`, `no`   | why |',
      row('NOT_AN_OUTCOME', '`true`, `no`'),
      '| TOOL_ERROR | tool | when | `true`, `no` | why |', // not in backticks
      '| see `TOOL_ERROR` | tool | when | `true`, `no` | why |', // more than the outcome in its cell
      '| `TOOL_ERROR` too | tool | when | `true`, `no` | why |',
      '| `TOOL_ERROR` | tool | `true`, `no` |', // too few columns
      'Some prose mentioning `TOOL_ERROR` | and a pipe.',
      '',
    );
    expect(readOutcomesTable(text)).toEqual([{ outcome: 'TOOL_SUCCESS', hasFinalResult: true, replay: 'no', replayByCode: {} }]);
  });

  it('needs no rationale column, and no space after the comma', () => {
    expect(readOutcomesTable('| `HTTP_ERROR` | http | when | `false`,`if_idempotent` |')).toEqual([
      { outcome: 'HTTP_ERROR', hasFinalResult: false, replay: 'if_idempotent', replayByCode: {} },
    ]);
  });

  it('refuses a recovery that does not start with `true` or `false`, naming the outcome and the text', () => {
    expect(() => readOutcomesTable(table(row('TOOL_ERROR', 'so `true`, `no`')))).toThrow(/does not start with `true` or `false`/);
    expect(() => readOutcomesTable(table(row('TOOL_ERROR', '`maybe`, `no`')))).toThrow('OUTCOMES.md, TOOL_ERROR: the recovery "`maybe`, `no`" does not start with `true` or `false`');
    expect(() => readOutcomesTable(table(row('TOOL_ERROR', 'true, `no`')))).toThrow(/does not start with `true` or `false`/);
  });

  it('refuses a replay advice outside the vocabulary, in either form, naming it', () => {
    expect(() => readOutcomesTable(table(row('TOOL_ERROR', '`true`, `sometimes`')))).toThrow('OUTCOMES.md, TOOL_ERROR: "sometimes" is not a replay advice');
    expect(() => readOutcomesTable(table(row('JSONRPC_ERROR', '`true`, `retry` for -32602, else `no`')))).toThrow('OUTCOMES.md, JSONRPC_ERROR: "retry" is not a replay advice');
    expect(() => readOutcomesTable(table(row('JSONRPC_ERROR', '`true`, `no` for -32602, else `later`')))).toThrow('"later" is not a replay advice');
  });

  it('refuses advice it cannot read, whole: nothing before or after the pattern is ignored', () => {
    for (const advice of ['no', '`no` then', 'x `no`', '`no` for -32602', '`no` for code, else `no`', '`no`, else `no`', 'x `no` for -32602, else `no`', '`no` for -32602, else `no` y']) {
      expect(() => readOutcomesTable(table(row('TOOL_ERROR', `\`false\`, ${advice}`))), advice).toThrow(`OUTCOMES.md, TOOL_ERROR: cannot read the replay advice "${advice}"`);
    }
  });

  it('reads the real document by default: one row per outcome', () => {
    const rows = readOutcomesTable();
    expect(rows.length).toBe(new Set(rows.map((r) => r.outcome)).size);
    expect(rows.length).toBeGreaterThanOrEqual(10);
  });
});
