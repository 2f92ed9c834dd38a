// A repro line starts the CLI the way the run was started, so a paste runs this same tool and never
// asks the registry for a package of that name (it is not published: `npx mcp-error-matrix` answers
// 404 outside a clone, and would run whatever someone later publishes under the name).
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../../test/temp-dirs.js';
import { describeInvocation } from './cli-invocation.js';
import { buildReproCommand } from '../run/repro.js';

const makeTempDir = useTempDirs();

/** A package folder with bin/mcp-error-matrix.js, and a bin folder linking `mcp-error-matrix` to it (as npm's global install does). */
function makeInstall(): { root: string; script: string; binDir: string; link: string } {
  const base = makeTempDir('mem-invocation-');
  const root = join(base, 'lib', 'node_modules', 'mcp-error-matrix');
  mkdirSync(join(root, 'bin'), { recursive: true });
  const script = join(root, 'bin', 'mcp-error-matrix.js');
  writeFileSync(script, '#!/usr/bin/env node\n');
  const binDir = join(base, 'bin');
  mkdirSync(binDir);
  const link = join(binDir, 'mcp-error-matrix');
  symlinkSync(script, link);
  return { root, script, binDir, link };
}

describe('the words a repro line starts with', () => {
  it('a clone run as `node bin/mcp-error-matrix.js` (or `npm run matrix`): the same file, from the run folder', () => {
    const { root, script } = makeInstall();
    expect(describeInvocation({ script, env: { PATH: '/usr/bin' }, cwd: root })).toEqual(['node', join('bin', 'mcp-error-matrix.js')]);
    expect(describeInvocation({ script, env: { PATH: '/usr/bin', npm_command: 'run-script' }, cwd: root })).toEqual(['node', join('bin', 'mcp-error-matrix.js')]);
  });

  it('a bin file outside the run folder (the GitHub Action): its absolute path', () => {
    const { script } = makeInstall();
    expect(describeInvocation({ script, env: { PATH: '' }, cwd: makeTempDir('mem-workspace-') })).toEqual(['node', script]);
  });

  it('a global install, started by its name on PATH: the name', () => {
    const { link, binDir } = makeInstall();
    expect(describeInvocation({ script: link, env: { PATH: ['/usr/bin', binDir].join(delimiter) }, cwd: makeTempDir('mem-workspace-') })).toEqual(['mcp-error-matrix']);
  });

  it('the name on PATH is another program: the path of the one that ran', () => {
    const { link } = makeInstall();
    const other = makeInstall();
    const cwd = makeTempDir('mem-workspace-');
    expect(describeInvocation({ script: link, env: { PATH: other.binDir }, cwd })).toEqual(['node', link]);
  });

  it('an installed copy under npx or npm exec: the local copy through `npx --no`, which never downloads', () => {
    const project = makeTempDir('mem-project-');
    const script = join(project, 'node_modules', '.bin', 'mcp-error-matrix');
    expect(describeInvocation({ script, env: { npm_command: 'exec', PATH: '' }, cwd: project })).toEqual(['npx', '--no', 'mcp-error-matrix']);
  });

  it("a clone's bin file started by something npx ran (e.g. a test run): the file, not npx", () => {
    const clone = makeTempDir('mem-clone-');
    expect(describeInvocation({ script: join(clone, 'bin', 'mcp-error-matrix.js'), env: { npm_command: 'exec', PATH: '' }, cwd: clone })).toEqual(['node', join('bin', 'mcp-error-matrix.js')]);
  });

  it("a project's package script (npm put node_modules/.bin on PATH): `npx --no`, since the user's shell has no such PATH", () => {
    const project = makeTempDir('mem-project-');
    const binDir = join(project, 'node_modules', '.bin');
    mkdirSync(binDir, { recursive: true });
    const script = join(project, 'node_modules', 'mcp-error-matrix', 'bin', 'mcp-error-matrix.js');
    mkdirSync(join(script, '..'), { recursive: true });
    writeFileSync(script, '#!/usr/bin/env node\n');
    symlinkSync(script, join(binDir, 'mcp-error-matrix'));
    expect(describeInvocation({ script: join(binDir, 'mcp-error-matrix'), env: { npm_command: 'run-script', PATH: binDir }, cwd: project })).toEqual(['npx', '--no', 'mcp-error-matrix']);
  });

  it('the repro line starts with those words, each shell-quoted', () => {
    const line = buildReproCommand({ program: ['node', '/opt/my tools/bin/mcp-error-matrix.js'], caseId: 'baseline', target: 'reference', protocolVersion: '2025-11-25', mode: 'http' });
    expect(line).toBe("node '/opt/my tools/bin/mcp-error-matrix.js' run --target reference --case baseline --version 2025-11-25");
    // Without an invocation (the programmatic API, the vitest helper): the project's own copy, never a download.
    expect(buildReproCommand({ caseId: 'baseline', target: 'reference', protocolVersion: '2025-11-25', mode: 'http' })).toMatch(/^npx --no mcp-error-matrix run /);
  });
});
