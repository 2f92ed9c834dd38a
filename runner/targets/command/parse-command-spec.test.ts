import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findCommandSource, parseCommandSpec } from './parse-command-spec.js';
import { useTempDirs } from '../../../test/temp-dirs.js';

const makeTempDir = useTempDirs();

describe('parseCommandSpec', () => {
  it.each([
    ['command:node client.mjs', { command: 'node client.mjs' }],
    ['command:node client.mjs #versions=2025-11-25', { command: 'node client.mjs', versions: ['2025-11-25'] }],
    ['command:python3 -m client --flag #timeout=5000&versions=2025-11-25,2026-07-28', { command: 'python3 -m client --flag', timeoutMs: 5000, versions: ['2025-11-25', '2026-07-28'] }],
    ['command:echo "a #b"', { command: 'echo "a #b"' }],
    ['command:node client.mjs #persistent', { command: 'node client.mjs', persistent: 1 }],
    ['command:node client.mjs #persistent=4&timeout=9000', { command: 'node client.mjs', persistent: 4, timeoutMs: 9000 }],
    ['command:node client.mjs #a trailing note', { command: 'node client.mjs #a trailing note' }],
  ])('parses %s', (spec, expected) => {
    expect(parseCommandSpec(spec)).toEqual(expected);
  });

  it.each([
    ['command:', 'the command line is empty'],
    ['command:node c.mjs #versions=2024-01-01', 'versions=2024-01-01'],
    ['command:node c.mjs #timeout=soon', 'timeout=soon'],
    ['command:node c.mjs #verions=2025-11-25', 'unknown option "verions"'],
    ['command:node c.mjs #persistent=0', 'persistent=0: expected a number of client processes from 1 to 16'],
    ['command:node c.mjs #persistent=many', 'persistent=many'],
  ])('rejects %s', (spec, problem) => {
    expect(() => parseCommandSpec(spec)).toThrow(problem);
  });
});

describe('findCommandSource', () => {
  const dir = makeTempDir('mem-source-');
  writeFileSync(join(dir, 'client.py'), 'print()');
  writeFileSync(join(dir, 'my-client'), '#!/bin/sh\n');
  chmodSync(join(dir, 'my-client'), 0o755);

  it('names the script an interpreter runs, an executable path, or the executable on PATH', () => {
    expect(findCommandSource('python3 -u client.py --x', dir)).toBe(join(dir, 'client.py'));
    expect(findCommandSource('./my-client arg', dir)).toBe(join(dir, 'my-client'));
    expect(findCommandSource('FOO=1 my-client', '/', dir)).toBe(join(dir, 'my-client'));
    expect(findCommandSource('no-such-tool-here', '/', dir)).toBeUndefined();
  });
});
