// What ran, for receipts: tool version and commit, Node, and each SDK target's installed package
// with the integrity npm recorded (lockfile, hidden lockfile, or _integrity), omitted when unknown.
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getPackageRoot, getPackageVersion, packagePath } from '../util/package-paths.js';
import { describeWhatRan } from './describe-what-ran.js';
import { readGitCommit } from './read-git-commit.js';

let prefix: string;
const SDK = '@modelcontextprotocol/sdk';

beforeEach(async () => {
  prefix = await mkdtemp(join(tmpdir(), 'mem-ran-'));
  await mkdir(join(prefix, 'node_modules', '@modelcontextprotocol', 'sdk'), { recursive: true });
});
afterEach(async () => {
  await rm(prefix, { recursive: true, force: true });
});

async function installFake(packageJson: object, hiddenLock?: object): Promise<string> {
  const source = join(prefix, 'node_modules', '@modelcontextprotocol', 'sdk', 'package.json');
  await writeFile(source, JSON.stringify(packageJson));
  if (hiddenLock) await writeFile(join(prefix, 'node_modules', '.package-lock.json'), JSON.stringify(hiddenLock));
  return source;
}

describe('describeWhatRan', () => {
  it('names the tool, its commit when it runs from a checkout, Node and the platform', async () => {
    const ran = await describeWhatRan([]);
    const commit = await readGitCommit(getPackageRoot());
    expect(ran).toEqual({ tool: { name: 'mcp-error-matrix', version: getPackageVersion(), ...(commit ? { commit } : {}) }, node: process.version, platform: `${process.platform}-${process.arch}`, targets: [] });
  });

  it("takes a bundled SDK's integrity from the project's package-lock.json", async () => {
    const lock = JSON.parse(readFileSync(packagePath('package-lock.json'), 'utf8'));
    const entry = lock.packages['node_modules/mcp-sdk-1.32.2'];
    const ran = await describeWhatRan([{ name: 'ts-sdk@1.32.2', kind: 'client', version: '1.32.2', source: packagePath('node_modules', 'mcp-sdk-1.32.2', 'package.json') }]);
    expect(ran.targets).toEqual([
      { name: 'ts-sdk@1.32.2', kind: 'client', version: '1.32.2', package: { name: SDK, version: '1.32.2', integrity: entry.integrity, integrityFrom: 'package-lock.json' } },
    ]);
    expect(entry.integrity).toMatch(/^sha512-/);
  });

  it("takes a cached install's integrity from npm's hidden lockfile, only for the same version", async () => {
    const source = await installFake({ name: SDK, version: '1.20.0' }, { packages: { 'node_modules/@modelcontextprotocol/sdk': { version: '1.20.0', integrity: 'sha512-hidden' } } });
    const [target] = (await describeWhatRan([{ name: 'ts-sdk@1.20.0', kind: 'client', version: '1.20.0', source }])).targets;
    expect(target!.package).toEqual({ name: SDK, version: '1.20.0', integrity: 'sha512-hidden', integrityFrom: 'node_modules/.package-lock.json' });
    await installFake({ name: SDK, version: '1.20.0' }, { packages: { 'node_modules/@modelcontextprotocol/sdk': { version: '1.19.0', integrity: 'sha512-other' } } });
    expect((await describeWhatRan([{ name: 'ts-sdk@1.20.0', kind: 'client', source }])).targets[0]!.package).toEqual({ name: SDK, version: '1.20.0' });
  });

  it("falls back to the installed package.json's _integrity, and omits what it cannot read", async () => {
    const source = await installFake({ name: SDK, version: '1.21.0', _integrity: 'sha512-underscore' });
    expect((await describeWhatRan([{ name: 'ts-sdk@1.21.0', kind: 'client', source }])).targets[0]!.package).toEqual({
      name: SDK,
      version: '1.21.0',
      integrity: 'sha512-underscore',
      integrityFrom: 'package.json _integrity',
    });
    await installFake({ name: SDK });
    expect((await describeWhatRan([{ name: 'ts-sdk@x', kind: 'client', source }])).targets[0]).toEqual({ name: 'ts-sdk@x', kind: 'client' });
    // A classifier or command has no package: name and kind only.
    expect((await describeWhatRan([{ name: 'command:./client.sh', kind: 'command', source: join(prefix, 'client.sh') }])).targets[0]).toEqual({ name: 'command:./client.sh', kind: 'command' });
  });
});
