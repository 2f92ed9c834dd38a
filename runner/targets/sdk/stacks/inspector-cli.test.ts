// The command line the inspector-cli adapter types for a cell, per major: what a developer runs.
import { describe, expect, it } from 'vitest';

const { buildArguments } = (await import('./inspector-cli.mjs' as string)) as { buildArguments(major: number, cell: { url: string; tool: string; arguments?: Record<string, unknown> }): string[] };
const cell = { url: 'http://127.0.0.1:4000/mcp', tool: 'delete_record', arguments: { id: 'r1', force: true, count: 2 } };

describe('inspector-cli: the command line per major', () => {
  it('2.x takes the arguments verbatim as JSON, negotiates the protocol era and never starts an interactive login', () => {
    expect(buildArguments(2, cell)).toEqual([
      '--cli', 'http://127.0.0.1:4000/mcp', '--transport', 'http', '--method', 'tools/call', '--tool-name', 'delete_record',
      '--tool-args-json', '{"id":"r1","force":true,"count":2}', '--protocol-era', 'auto', '--stored-auth-only',
    ]);
  });
  it('1.x takes key=value pairs, each value as JSON so that its type survives (the CLI parses JSON first)', () => {
    expect(buildArguments(1, cell)).toEqual(['--cli', 'http://127.0.0.1:4000/mcp', '--transport', 'http', '--method', 'tools/call', '--tool-name', 'delete_record', '--tool-arg', 'id="r1"', 'force=true', 'count=2']);
  });
  it('1.x without arguments passes no --tool-arg at all', () => {
    expect(buildArguments(1, { ...cell, arguments: {} })).toEqual(['--cli', 'http://127.0.0.1:4000/mcp', '--transport', 'http', '--method', 'tools/call', '--tool-name', 'delete_record']);
  });
});
