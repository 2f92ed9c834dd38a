// The inputs a run's receipts cover and the named roots they are recorded under: the runner's own
// code including bin/, worker scripts and the generated case validator; a classifier with the
// files it imports; a command's script; the user's cases; everything shipped under "package".
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import picomatch from 'picomatch';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadCases } from '../cases/load-cases.js';
import { getPackageRoot, packagePath } from '../util/package-paths.js';
import type { Target, TargetInfo } from '../vocabulary/types.js';
import { collectRunInputs, findCommonFolder, RUNNER_FILES } from './collect-inputs.js';

let dir: string;
const fakeTarget = (info: TargetInfo): Target => ({ info, usesServer: () => false, run: async () => ({ verdicts: [] }) });

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mem-inputs-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('collectRunInputs', () => {
  it('covers bin/, the worker scripts and the generated case validator, all under the package root', async () => {
    const covered = picomatch(RUNNER_FILES);
    for (const file of ['bin/mcp-error-matrix.js', 'dist/runner/cases/case-validator.generated.cjs', 'runner/targets/classifier-worker.mjs', 'runner/targets/sdk/worker.mjs', 'dist/runner/cli/cli.js']) {
      expect(covered(file), file).toBe(true);
    }
    const { inputs } = await collectRunInputs({ cases: [], schemas: [], targets: [] });
    const runner = inputs.filter((input) => input.kind === 'runner').map((input) => input.path.slice(getPackageRoot().length + 1));
    expect(runner).toEqual(expect.arrayContaining(['bin/mcp-error-matrix.js', 'runner/targets/classifier-worker.mjs', 'runner/targets/sdk/worker.mjs', 'package-lock.json']));
    expect(runner.some((path) => path.endsWith('.test.ts'))).toBe(false);
    expect(inputs.every((input) => input.root === 'package')).toBe(true);
  });

  it('puts user files under a root each: cases at their common folder, a classifier with its imports, a command script', async () => {
    // Two --cases folders: their root is the deepest folder holding both.
    await mkdir(join(dir, 'cases', 'one', 'protocol'), { recursive: true });
    await mkdir(join(dir, 'cases', 'two', 'protocol'), { recursive: true });
    await mkdir(join(dir, 'cls', 'lib'), { recursive: true });
    await mkdir(join(dir, 'client'), { recursive: true });
    await copyFile(packagePath('cases', 'protocol', 'malformed-json.json'), join(dir, 'cases', 'one', 'protocol', 'malformed-json.json'));
    await copyFile(packagePath('cases', 'protocol', 'error-with-data.json'), join(dir, 'cases', 'two', 'protocol', 'error-with-data.json'));
    await writeFile(join(dir, 'cls', 'mine.mjs'), "import './lib/util.mjs';\n");
    await writeFile(join(dir, 'cls', 'lib', 'util.mjs'), '');
    await writeFile(join(dir, 'client', 'run.sh'), '#!/bin/sh\n');
    const cases = await loadCases({ sources: [join(dir, 'cases', 'one'), join(dir, 'cases', 'two')], cwd: dir });
    const { inputs, roots } = await collectRunInputs({
      cases,
      schemas: [],
      targets: [
        fakeTarget({ name: 'reference', kind: 'classifier', source: packagePath('runner', 'classify', 'reference.ts') }),
        fakeTarget({ name: 'classifier:./cls/mine.mjs', kind: 'classifier', source: join(dir, 'cls', 'mine.mjs') }),
        fakeTarget({ name: 'command:sh ./client/run.sh', kind: 'command', source: join(dir, 'client', 'run.sh') }),
      ],
    });
    expect(roots['cases']).toMatchObject({ dir: join(dir, 'cases'), what: 'the case files given with --cases' });
    expect(roots['classifier-2']).toMatchObject({ dir: join(dir, 'cls') });
    expect(roots['command']).toMatchObject({ dir: join(dir, 'client') });
    expect(roots['classifier']).toBeUndefined(); // the built-in reference lies in the package
    const targets = inputs.filter((input) => input.kind === 'target').map(({ path, root, label }) => ({ path, root, label }));
    expect(targets).toEqual([
      { path: packagePath('runner', 'classify', 'reference.ts'), root: 'package', label: 'reference' },
      { path: join(dir, 'cls', 'mine.mjs'), root: 'classifier-2', label: 'classifier:./cls/mine.mjs' },
      { path: join(dir, 'cls', 'lib', 'util.mjs'), root: 'classifier-2', label: 'classifier:./cls/mine.mjs (imported)' },
      { path: join(dir, 'client', 'run.sh'), root: 'command', label: 'command:sh ./client/run.sh' },
    ]);
    expect(inputs.filter((input) => input.kind === 'case').map((input) => input.root)).toEqual(['cases', 'cases']);
  });
});

describe('findCommonFolder', () => {
  it('is the deepest folder holding every file, or / when they share none', () => {
    expect(findCommonFolder(['/a/b/c.json', '/a/b/d/e.json'])).toBe('/a/b');
    expect(findCommonFolder(['/a/b/c.json'])).toBe('/a/b');
    expect(findCommonFolder(['/x/c.json', '/y/d.json'])).toBe('/');
  });
});
