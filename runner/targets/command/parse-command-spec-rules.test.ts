// `command:` target specs and the file a command client runs from (parse-command-spec.ts), rule by
// rule: every option at and past its limits with the words it is refused with, what a baseline keys
// a client by, and which file the receipts name for each shape of command line.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_TARGET_CELL_MS } from '../../run/cell-budget.js';
import { useTempDirs } from '../../../test/temp-dirs.js';
import { findCommandSource, MAX_PERSISTENT_PROCESSES, parseCommandSpec, stripCommandRunOptions } from './parse-command-spec.js';

const makeTempDir = useTempDirs();

const refusal = (spec: string) => {
  try {
    parseCommandSpec(spec);
  } catch (error) {
    return (error as Error).message;
  }
  return 'accepted';
};

describe('parseCommandSpec', () => {
  it('removes only the leading "command:" and the white space around the command line', () => {
    expect(parseCommandSpec('command:  node c.mjs --mode command:x  ').command).toBe('node c.mjs --mode command:x');
    expect(parseCommandSpec('node c.mjs --mode command:x').command).toBe('node c.mjs --mode command:x');
  });

  it('versions=: empty entries are ignored, none at all or an unknown one refused with the list', () => {
    expect(parseCommandSpec('command:c #versions=2025-11-25,,2026-07-28').versions).toEqual(['2025-11-25', '2026-07-28']);
    expect(refusal('command:c #versions=')).toContain('versions=: expected a comma-separated list of 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28');
    expect(refusal('command:c #versions=,')).toContain('versions=,: expected a comma-separated list of');
  });

  it(`persistent=: from 1 to ${MAX_PERSISTENT_PROCESSES} processes, bare is 1`, () => {
    expect(parseCommandSpec('command:c #persistent').persistent).toBe(1);
    expect(parseCommandSpec('command:c #persistent=1').persistent).toBe(1);
    expect(parseCommandSpec(`command:c #persistent=${MAX_PERSISTENT_PROCESSES}`).persistent).toBe(MAX_PERSISTENT_PROCESSES);
    for (const value of ['0', String(MAX_PERSISTENT_PROCESSES + 1), '1.5', 'x']) {
      expect(refusal(`command:c #persistent=${value}`)).toContain(`persistent=${value}: expected a number of client processes from 1 to ${MAX_PERSISTENT_PROCESSES}`);
    }
  });

  it(`timeout=: a positive whole number of ms, at most ${MAX_TARGET_CELL_MS}`, () => {
    expect(parseCommandSpec('command:c #timeout=1').timeoutMs).toBe(1);
    expect(parseCommandSpec(`command:c #timeout=${MAX_TARGET_CELL_MS}`).timeoutMs).toBe(MAX_TARGET_CELL_MS);
    for (const value of ['0', '-5', '2.5']) expect(refusal(`command:c #timeout=${value}`)).toContain(`timeout=${value}: expected a positive whole number of milliseconds`);
    expect(refusal(`command:c #timeout=${MAX_TARGET_CELL_MS + 1}`)).toContain(`timeout=${MAX_TARGET_CELL_MS + 1}: a cell may take at most ${MAX_TARGET_CELL_MS} ms; write a smaller #timeout=`);
  });
});

describe('stripCommandRunOptions: what a baseline keys a command client by', () => {
  it.each([
    ['another kind of target, as it is', 'ts-sdk@1.32.2', 'ts-sdk@1.32.2'],
    ['a command without options, as it is', 'command:node c.mjs', 'command:node c.mjs'],
    ['a trailing comment that is no option, as it is', 'command:node c.mjs # a note', 'command:node c.mjs # a note'],
    ['timeout and versions dropped', 'command:node c.mjs   #timeout=5000&versions=2025-11-25', 'command:node c.mjs'],
    ['the other options kept, in order', 'command:node c.mjs #timeout=5000&persistent=2', 'command:node c.mjs #persistent=2'],
    ['the other options kept joined by &', 'command:node c.mjs #persistent=2&timeout=1&persistent', 'command:node c.mjs #persistent=2&persistent'],
    ['another kind with a comment like the options, as it is', 'classifier:./c.mjs #timeout=5000', 'classifier:./c.mjs #timeout=5000'],
  ])('keeps %s', (_title, spec, key) => {
    expect(stripCommandRunOptions(spec)).toBe(key);
  });
});

describe('findCommandSource: the file the receipts name', () => {
  const dir = makeTempDir('mem-source-rules-');
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  mkdirSync(join(dir, 'a-folder'));
  const executable = (path: string) => {
    writeFileSync(path, '#!/bin/sh\n');
    chmodSync(path, 0o755);
    return path;
  };
  writeFileSync(join(dir, 'script.mjs'), '');
  writeFileSync(join(dir, "it's.mjs"), '');
  const fakeNode = executable(join(bin, 'node'));
  const tool = executable(join(dir, 'tool'));
  const exeNode = executable(join(dir, 'node.exe'));
  const notNode = executable(join(dir, 'no.exede'));
  const oddName = executable(join(dir, 'run=me'));
  const quoted = executable(join(dir, "it's-tool"));
  writeFileSync(join(bin, 'plain'), ''); // on PATH, not executable

  it("an interpreter's script, found after leading white space, env assignments, options and quotes", () => {
    expect(findCommandSource('   FOO=1 node --flag script.mjs', dir, bin)).toBe(join(dir, 'script.mjs'));
    expect(findCommandSource(`'node' 'script.mjs'`, dir, bin)).toBe(join(dir, 'script.mjs'));
    expect(findCommandSource(`node it's.mjs`, dir, bin)).toBe(join(dir, "it's.mjs"));
  });

  it('an interpreter named by its path or with .exe is still an interpreter; a name that only holds ".exe" is not', () => {
    expect(findCommandSource(`${process.execPath} script.mjs`, dir, bin)).toBe(join(dir, 'script.mjs'));
    expect(findCommandSource('./node.exe script.mjs', dir, bin)).toBe(join(dir, 'script.mjs'));
    expect(findCommandSource('./no.exede script.mjs', dir, bin)).toBe(notNode);
    expect(exeNode).toBe(join(dir, 'node.exe'));
  });

  it('an executable that is no interpreter is the file, whatever follows it', () => {
    expect(findCommandSource('./tool script.mjs', dir, bin)).toBe(tool);
    expect(findCommandSource('./run=me', dir, bin)).toBe(oddName);
    expect(findCommandSource(`"./it's-tool" --x`, dir, bin)).toBe(quoted);
  });

  it('an interpreter without a script that exists is found on PATH: no script, a missing one, a folder', () => {
    expect(findCommandSource('node --version', dir, bin)).toBe(fakeNode);
    expect(findCommandSource('node missing.mjs', dir, bin)).toBe(fakeNode);
    expect(findCommandSource('node a-folder', dir, bin)).toBe(fakeNode);
  });

  it('on PATH only an executable file counts, and a blank command line names nothing', () => {
    expect(findCommandSource('plain', dir, bin)).toBeUndefined();
    expect(findCommandSource('   ', dir, bin)).toBeUndefined();
  });

  it("looks in the process's PATH when none is given", () => {
    expect(findCommandSource('node --version', dir)).toMatch(/\/node$/);
  });
});
