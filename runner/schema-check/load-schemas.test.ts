import { createHash } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeWithSchemas, getTestSchemasDir } from '../../test/describe-requiring.js';
import { PROTOCOL_VERSIONS, type ProtocolVersion } from '../vocabulary/types.js';
import { resolveSchemas } from './load-schemas.js';
import { getSchemaPins } from './pins.js';
import { SchemaLoadError } from './schema-errors.js';
import { getCachedSchemaPath, getSchemaCacheDir } from './schema-files.js';

const sharedDir = getTestSchemasDir();
const pins = getSchemaPins();
const V25: ProtocolVersion = '2025-11-25';
let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'mem-schemas-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** A fresh folder holding `<version>/schema.json` copies of the shared files. */
async function makeSchemaDir(name: string, tamper?: ProtocolVersion): Promise<string> {
  const dir = join(work, name);
  for (const version of PROTOCOL_VERSIONS) {
    await mkdir(join(dir, version), { recursive: true });
    const target = join(dir, version, 'schema.json');
    await copyFile(join(sharedDir, version, 'schema.json'), target);
    if (version === tamper) {
      const bytes = await readFile(target);
      bytes[100] = bytes[100]! ^ 1;
      await writeFile(target, bytes);
    }
  }
  return dir;
}

/** A cache folder laid out as the loader expects (`<commit>/<version>/schema.json`). */
async function makeCacheDir(name: string): Promise<string> {
  const cacheDir = join(work, name);
  for (const version of PROTOCOL_VERSIONS) {
    const target = getCachedSchemaPath(cacheDir, pins[version]);
    await mkdir(join(target, '..'), { recursive: true });
    await copyFile(join(sharedDir, version, 'schema.json'), target);
  }
  return cacheDir;
}

/** A local stand-in for raw.githubusercontent.com: serves the shared files by URL path. */
async function startSchemaServer(options: { corrupt?: boolean } = {}): Promise<{ url: string; requests: string[]; close: () => Promise<void> }> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(req.url ?? '');
    const version = PROTOCOL_VERSIONS.find((v) => req.url?.endsWith(`/schema/${v}/schema.json`));
    if (!version) return void res.writeHead(404).end();
    readFile(join(sharedDir, version, 'schema.json')).then((bytes) => {
      if (options.corrupt) bytes[10] = bytes[10]! ^ 1;
      res.writeHead(200, { 'content-type': 'application/json' }).end(bytes);
    }, () => res.writeHead(500).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, requests, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describeWithSchemas('pins', () => {
  it.each(PROTOCOL_VERSIONS)('pins %s to the bytes of the shared copy', async (version) => {
    const bytes = await readFile(join(sharedDir, version, 'schema.json'));
    const pin = pins[version];
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(pin.sha256);
    expect(bytes.byteLength).toBe(pin.bytes);
    expect(pin.commit).toBe('b0f60ba5409db7a6582440a7b473cc0398890f15');
    expect(pin.url).toBe(
      `https://raw.githubusercontent.com/modelcontextprotocol/modelcontextprotocol/${pin.commit}/schema/${version}/schema.json`,
    );
  });
});

describeWithSchemas('resolveSchemas', () => {
  it('loads both versions from MCP_SCHEMAS_DIR with their hashes', async () => {
    const loaded = await resolveSchemas({ env: { MCP_SCHEMAS_DIR: sharedDir }, download: false });
    for (const version of PROTOCOL_VERSIONS) {
      expect(loaded[version]).toMatchObject({ version, source: 'env', sha256: pins[version].sha256, matchesPin: true });
      expect(loaded[version]?.path).toBe(join(sharedDir, version, 'schema.json'));
      // draft-07 before 2025-11-25 (`definitions`), draft 2020-12 after (`$defs`)
      expect(loaded[version]?.schema).toHaveProperty(version < '2025-11-25' ? 'definitions.CallToolResult' : '$defs.CallToolResult');
    }
  });

  it('refuses a copy that differs by one byte, naming the file and both hashes', async () => {
    const dir = await makeSchemaDir('tampered', V25);
    const file = join(dir, V25, 'schema.json');
    const actual = createHash('sha256').update(await readFile(file)).digest('hex');
    const error = await resolveSchemas({ schemasDir: dir, env: {}, download: false }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SchemaLoadError);
    expect(error).toMatchObject({ code: 'MEM_SCHEMA_MISMATCH', exitCode: 2 });
    const message = (error as Error).message;
    expect(message).toContain(file);
    expect(message).toContain(pins[V25].sha256);
    expect(message).toContain(actual);
  });

  it('prefers --schemas over MCP_SCHEMAS_DIR over the cache over a download', async () => {
    const flagDir = await makeSchemaDir('flag');
    const envDir = await makeSchemaDir('env');
    const cacheDir = await makeCacheDir('cache-order');
    const server = await startSchemaServer();
    try {
      const common = { download: true, baseUrlOverride: server.url };
      const flag = await resolveSchemas({ ...common, schemasDir: flagDir, env: { MCP_SCHEMAS_DIR: envDir }, cacheDir });
      const env = await resolveSchemas({ ...common, env: { MCP_SCHEMAS_DIR: envDir }, cacheDir });
      const cache = await resolveSchemas({ ...common, env: {}, cacheDir });
      const download = await resolveSchemas({ ...common, env: {}, cacheDir: join(work, 'cache-empty') });
      expect([flag, env, cache, download].map((s) => s[V25]?.source)).toEqual(['flag', 'env', 'cache', 'download']);
      expect(flag[V25]?.path).toBe(join(flagDir, V25, 'schema.json'));
      expect(env[V25]?.path).toBe(join(envDir, V25, 'schema.json'));
      expect(server.requests).toHaveLength(PROTOCOL_VERSIONS.length);
    } finally {
      await server.close();
    }
  });

  it('does not fall back to the cache when the named folder lacks a version', async () => {
    const dir = join(work, 'half');
    await mkdir(join(dir, V25), { recursive: true });
    await copyFile(join(sharedDir, V25, 'schema.json'), join(dir, V25, 'schema.json'));
    const error = await resolveSchemas({ schemasDir: dir, env: {}, cacheDir: await makeCacheDir('cache-unused'), download: false }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'MEM_SCHEMA_NOT_FOUND' });
    expect((error as Error).message).toContain(join(dir, '2025-03-26', 'schema.json'));
    expect((error as Error).message).toContain('--schemas');
  });

  it('downloads once into the cache, atomically and verified', async () => {
    const server = await startSchemaServer();
    const cacheDir = join(work, 'cache-download');
    try {
      const first = await resolveSchemas({ env: {}, cacheDir, baseUrlOverride: server.url });
      const second = await resolveSchemas({ env: {}, cacheDir, baseUrlOverride: server.url });
      expect(PROTOCOL_VERSIONS.map((v) => first[v]?.source)).toEqual(PROTOCOL_VERSIONS.map(() => 'download'));
      expect(PROTOCOL_VERSIONS.map((v) => second[v]?.source)).toEqual(PROTOCOL_VERSIONS.map(() => 'cache'));
      expect(server.requests.sort()).toEqual(PROTOCOL_VERSIONS.map((v) => new URL(pins[v].url).pathname));
      for (const version of PROTOCOL_VERSIONS) {
        const file = getCachedSchemaPath(cacheDir, pins[version]);
        expect(first[version]?.path).toBe(file);
        expect(createHash('sha256').update(await readFile(file)).digest('hex')).toBe(pins[version].sha256);
        expect(await readdir(join(file, '..'))).toEqual(['schema.json']); // no temp file left behind
      }
    } finally {
      await server.close();
    }
  });

  it('refuses a server that serves other bytes and caches nothing', async () => {
    const server = await startSchemaServer({ corrupt: true });
    const cacheDir = join(work, 'cache-corrupt');
    try {
      const error = await resolveSchemas({ env: {}, cacheDir, baseUrlOverride: server.url, versions: [V25] }).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'MEM_SCHEMA_MISMATCH' });
      expect((error as Error).message).toContain(`${server.url}${new URL(pins[V25].url).pathname}`);
      expect((error as Error).message).toContain(pins[V25].sha256);
      await expect(readdir(cacheDir)).rejects.toThrow(/ENOENT/);
    } finally {
      await server.close();
    }
  });

  it('refuses a corrupt cache file', async () => {
    const cacheDir = await makeCacheDir('cache-bad');
    const file = getCachedSchemaPath(cacheDir, pins[V25]);
    await writeFile(file, '{}');
    const error = await resolveSchemas({ env: {}, cacheDir, download: false, versions: [V25] }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'MEM_SCHEMA_MISMATCH' });
    expect((error as Error).message).toContain(file);
  });
});

describe('resolveSchemas with no schema anywhere (needs none)', () => {
  it('offline with nothing cached names every missing version and every remedy, in one error', async () => {
    const server = await startSchemaServer();
    await server.close(); // a port that refuses connections: offline without touching the network
    const cacheDir = join(work, 'cache-offline');
    const error = await resolveSchemas({ env: {}, cacheDir, baseUrlOverride: server.url }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'MEM_SCHEMA_UNAVAILABLE', exitCode: 2 });
    const message = (error as Error).message;
    // The versions as a reader lists them: "a, b, c and d".
    expect(message).toContain(`The pinned ${PROTOCOL_VERSIONS.slice(0, -1).join(', ')} and ${PROTOCOL_VERSIONS.at(-1)} schemas are not available`);
    for (const version of PROTOCOL_VERSIONS) {
      expect(message).toContain(version);
      expect(message).toContain(getCachedSchemaPath(cacheDir, pins[version]));
      expect(message).toContain(pins[version].sha256);
    }
    expect(message).toContain('--schemas DIR');
    expect(message).toContain('MCP_SCHEMAS_DIR');
    expect(message).toContain('mcp-error-matrix schemas fetch --from DIR');
    expect(message).toMatch(/`mcp-error-matrix schemas fetch`/);
    expect(message).toContain('--no-schemas');
    expect(message).toContain('failed'); // why the download did not help
  });

  it('with downloading off and nothing cached, fails the same way without a request', async () => {
    const error = await resolveSchemas({ env: {}, cacheDir: join(work, 'cache-none'), download: false }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'MEM_SCHEMA_UNAVAILABLE' });
    const message = (error as Error).message;
    expect(message).toMatch(/--schemas DIR[\s\S]*schemas fetch --from DIR[\s\S]*--no-schemas/);
    expect(message).toMatch(/2025-11-25[\s\S]*2026-07-28/);
  });
});

describe('getSchemaCacheDir', () => {
  it('follows XDG_CACHE_HOME, else ~/.cache, and ignores a relative XDG_CACHE_HOME', () => {
    expect(getSchemaCacheDir({ XDG_CACHE_HOME: '/x/cache', HOME: '/home/u' })).toBe('/x/cache/mcp-error-matrix/schemas');
    expect(getSchemaCacheDir({ HOME: '/home/u' })).toBe('/home/u/.cache/mcp-error-matrix/schemas');
    expect(getSchemaCacheDir({ XDG_CACHE_HOME: 'rel', HOME: '/home/u' })).toBe('/home/u/.cache/mcp-error-matrix/schemas');
  });
});
