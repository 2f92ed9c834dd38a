import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeWithSchemas, getTestSchemasDir } from '../../test/describe-requiring.js';
import { PROTOCOL_VERSIONS } from '../vocabulary/types.js';
import type { CliIo } from '../cli/cli-io.js';
import { main } from '../cli/cli.js';
import { getSchemaPins } from '../schema-check/pins.js';
import { getCachedSchemaPath } from '../schema-check/schema-files.js';

// Through the CLI's dispatcher, which turns input errors into exit code 2.
const runValidateCommand = (args: string[], io: CliIo) => main(['validate', ...args], io);
const runSchemasCommand = (args: string[], io: CliIo) => main(['schemas', ...args], io);

const sharedDir = getTestSchemasDir();
const pins = getSchemaPins();
let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'mem-schema-cmd-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

function makeIO(overrides: Partial<CliIo> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    stdout: (s) => void out.push(s),
    stderr: (s) => void err.push(s),
    cwd: process.cwd(),
    isTTY: false,
    env: { MCP_SCHEMAS_DIR: sharedDir },
    schemaCacheDir: join(work, 'unused-cache'),
    ...overrides,
  };
  return { io, stdout: () => out.join(''), stderr: () => err.join('') };
}

async function writeJson(name: string, value: unknown): Promise<string> {
  const file = join(work, name);
  await writeFile(file, typeof value === 'string' ? value : JSON.stringify(value));
  return file;
}

describeWithSchemas('validate', () => {
  const ok25 = { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'x' }] } };

  it('exits 0 for a message valid under one version and says which', async () => {
    const { io, stdout } = makeIO();
    expect(await runValidateCommand([await writeJson('ok25.json', ok25)], io)).toBe(0);
    expect(stdout()).toContain('2026-07-28  INVALID  JSONRPCResultResponse + CallToolResult');
    expect(stdout()).toContain("/result: must have required property 'resultType'");
    expect(stdout()).toContain('2025-03-26  valid    JSONRPCResponse + CallToolResult');
    expect(stdout()).toContain('valid under 2025-03-26, 2025-06-18, 2025-11-25 only');
  });

  it('exits 1 when the chosen version rejects it', async () => {
    const { io } = makeIO();
    expect(await runValidateCommand([await writeJson('ok25b.json', ok25), '--version', '2026-07-28'], io)).toBe(1);
  });

  it('exits 1 for {resultType:"complete"} without content under every version', async () => {
    const { io, stdout } = makeIO();
    const file = await writeJson('complete.json', { jsonrpc: '2.0', id: 1, result: { resultType: 'complete' } });
    expect(await runValidateCommand([file], io)).toBe(1);
    expect(stdout()).toContain('INVALID under every version checked');
  });

  it('checks a named definition and prints JSON on request', async () => {
    const { io, stdout } = makeIO();
    const file = await writeJson('ir.json', { resultType: 'input_required', requestState: 's' });
    expect(await runValidateCommand([file, '--def', 'InputRequiredResult', '--json'], io)).toBe(0);
    const printed = JSON.parse(stdout()) as { file: string; valid: boolean; skipped: unknown[] };
    expect(printed).toMatchObject({ file, valid: true, skipped: [{ version: '2025-03-26' }, { version: '2025-06-18' }, { version: '2025-11-25' }] });
  });

  it('reads standard input for -', async () => {
    const { io } = makeIO({ readStdin: async () => JSON.stringify(ok25) });
    expect(await runValidateCommand(['-', '--version', '2025-11-25'], io)).toBe(0);
  });

  it.each([
    ['a missing file', async () => [join(work, 'nope.json')], /nope\.json: cannot read/],
    ['a folder instead of a file', async () => [work], /: the message file is not a regular file \(it is a folder\)/],
    ['a file that is not JSON', async () => [await writeJson('bad.json', '{"jsonrpc": ')], /bad\.json: not valid JSON/],
    ['an unknown version', async () => [await writeJson('v.json', ok25), '--version', '2024-01-01'], /--version 2024-01-01: expected 2025-03-26 or 2025-06-18 or 2025-11-25 or 2026-07-28/],
    ['an unknown definition', async () => [await writeJson('d.json', ok25), '--def', 'CallToolResutl'], /--def CallToolResutl: .*did you mean CallToolResult\?/],
    ['an unknown flag', async () => [await writeJson('f.json', ok25), '--verbose'], /validate: unknown option --verbose; see `mcp-error-matrix validate --help`/],
    ['no file', async () => [], /expected one file/],
    ['a schema folder without the schemas', async () => [await writeJson('s.json', ok25), '--schemas', work], /2025-03-26[/\\]schema\.json: not found/],
  ] as const)('exits 2 for %s, naming it', async (_label, makeArgs, message) => {
    const { io, stderr, stdout } = makeIO();
    expect(await runValidateCommand([...(await makeArgs())], io)).toBe(2);
    expect(stderr()).toMatch(message);
    expect(stdout()).toBe('');
  });
});

describeWithSchemas('schemas', () => {
  it('shows where each schema was found and that it matches its pin', async () => {
    const { io, stdout } = makeIO();
    expect(await runSchemasCommand([], io)).toBe(0);
    for (const version of PROTOCOL_VERSIONS) {
      expect(stdout()).toContain(`${version}  from MCP_SCHEMAS_DIR=${sharedDir}`);
      expect(stdout()).toContain(`${pins[version].sha256} (matches the pin)`);
    }
  });

  it('reports a mismatching file with both hashes', async () => {
    const dir = join(work, 'tampered');
    for (const version of PROTOCOL_VERSIONS) {
      await mkdir(join(dir, version), { recursive: true });
      await copyFile(join(sharedDir, version, 'schema.json'), join(dir, version, 'schema.json'));
    }
    await writeFile(join(dir, '2026-07-28', 'schema.json'), '{}');
    const { io, stdout } = makeIO();
    expect(await runSchemasCommand(['--schemas', dir], io)).toBe(2);
    expect(stdout()).toMatch(new RegExp(`2026-07-28  MISMATCH[\\s\\S]*pinned  ${pins['2026-07-28'].sha256}`));
  });

  it('fetch --from imports verified files into the cache, which then serves them', async () => {
    const cacheDir = join(work, 'import-cache');
    const { io, stdout } = makeIO({ env: {}, schemaCacheDir: cacheDir });
    expect(await runSchemasCommand(['fetch', '--from', sharedDir], io)).toBe(0);
    expect(stdout()).toContain('imported');
    const show = makeIO({ env: {}, schemaCacheDir: cacheDir });
    expect(await runSchemasCommand([], show.io)).toBe(0);
    expect(show.stdout()).toContain('2025-11-25  from the cache');
    const again = makeIO({ env: {}, schemaCacheDir: cacheDir });
    expect(await runSchemasCommand(['fetch', '--from', sharedDir], again.io)).toBe(0);
    expect(again.stdout()).toContain('already cached');
  });

  it('fetch downloads from the pinned path (a local server here) and replaces a corrupt cache file', async () => {
    const server = createServer((req, res) => {
      const version = PROTOCOL_VERSIONS.find((v) => req.url === new URL(pins[v].url).pathname);
      if (!version) return void res.writeHead(404).end();
      void readFile(join(sharedDir, version, 'schema.json')).then((bytes) => res.end(bytes));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const cacheDir = join(work, 'download-cache');
    const corrupt = getCachedSchemaPath(cacheDir, pins['2025-11-25']);
    await mkdir(join(corrupt, '..'), { recursive: true });
    await writeFile(corrupt, 'garbage');
    try {
      const baseUrlOverride = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const { io, stdout } = makeIO({ env: {}, schemaCacheDir: cacheDir, schemaDownload: { baseUrlOverride } });
      expect(await runSchemasCommand(['fetch'], io)).toBe(0);
      expect(stdout()).toContain('2025-11-25  replaced a corrupt cache file');
      expect(stdout()).toContain('2026-07-28  downloaded');
      expect((await readFile(corrupt)).byteLength).toBe(pins['2025-11-25'].bytes);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('refuses unknown subcommands and misplaced flags', async () => {
    const { io, stderr } = makeIO();
    expect(await runSchemasCommand(['pull'], io)).toBe(2);
    expect(await runSchemasCommand(['--from', sharedDir], io)).toBe(2);
    expect(stderr()).toMatch(/unexpected argument "pull"[\s\S]*--from only applies/);
  });
});

describe('schemas with no schema anywhere (needs none)', () => {
  it('exits 2 naming both remedies when nothing is found', async () => {
    const { io, stdout, stderr } = makeIO({ env: {}, schemaCacheDir: join(work, 'empty-cache') });
    expect(await runSchemasCommand([], io)).toBe(2);
    expect(stdout()).toContain('NOT FOUND');
    expect(stderr()).toMatch(/--schemas DIR[\s\S]*MCP_SCHEMAS_DIR[\s\S]*schemas fetch/);
  });
});
