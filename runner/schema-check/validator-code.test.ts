// The evidence chain of the validator-code cache: code is used only when its bytes match the
// pin shipped with the tool; a tampered file is detected and regenerated; the run names the
// code that judged it; and the pins match what this ajv generates.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { describeWithSchemas, getTestSchemasDir } from '../../test/describe-requiring.js';
import { getSchemaRequirement } from '../../test/requirements.js';
import type { ProtocolVersion } from '../vocabulary/types.js';
import { resolveSchemas, type LoadedSchemas } from './load-schemas.js';
import { createSchemaValidator } from './validator.js';
import { generateDefinitionCode, getValidatorCodePath, hashCode, loadPinnedValidator, readValidatorCodePins } from './validator-code.js';

const V25: ProtocolVersion = '2025-03-26';
const badResponse = { jsonrpc: '2.0', id: 1, result: { content: 'not an array' } };
let schemas: LoadedSchemas;
const dirs: string[] = [];
const makeCacheDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'mem-validator-code-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
if (getSchemaRequirement().available) beforeAll(async () => {
  schemas = await resolveSchemas({ env: { MCP_SCHEMAS_DIR: getTestSchemasDir() }, download: false });
});

describeWithSchemas('validator code cache', () => {
  const load = (dir: string, definition: string) => {
    const loaded = schemas[V25]!;
    return loadPinnedValidator(dir, loaded.sha256, loaded.schema, 'definitions', definition);
  };

  it('pins what this ajv generates (a stale pins file would make every run compile)', () => {
    const loaded = schemas[V25]!;
    const pins = readValidatorCodePins();
    expect(pins, 'schemas/validator-code-pins.json is absent or names another ajv: npm run pin:validator-code').not.toBeNull();
    for (const version of ['2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'] as const) {
      expect(Object.keys(pins!.schemas[schemas[version]!.sha256]?.codes ?? {}).length, version).toBeGreaterThan(50);
    }
    for (const definition of ['JSONRPCResponse', 'TextContent']) {
      expect(hashCode(generateDefinitionCode(loaded.schema, 'definitions', definition))).toBe(pins!.schemas[loaded.sha256]!.codes[definition]);
    }
  });

  it('generates and caches a missing file, then loads it from the cache', () => {
    const dir = makeCacheDir();
    const first = load(dir, 'JSONRPCResponse')!;
    expect(first.used.source).toBe('generated');
    const second = load(dir, 'JSONRPCResponse')!;
    expect(second.used).toEqual({ ...first.used, source: 'cache' });
    expect(hashCode(readFileSync(second.used.path!, 'utf8'))).toBe(second.used.sha256);
    expect(second.validate(badResponse)).toBe(true); // a response: the envelope is valid
    expect(second.validate({ jsonrpc: '2.0' })).toBe(false);
  });

  it('refuses a tampered cache file: regenerates the pinned code and replaces the file', () => {
    const dir = makeCacheDir();
    const { used } = load(dir, 'JSONRPCResponse')!;
    // A validator that accepts anything, where the real one rejects a message without an id.
    writeFileSync(used.path!, '"use strict";module.exports = function validate() { return true; };');
    const again = load(dir, 'JSONRPCResponse')!;
    expect(again.used.source).toBe('generated');
    expect(again.validate({ jsonrpc: '2.0' })).toBe(false);
    expect(hashCode(readFileSync(used.path!, 'utf8'))).toBe(used.sha256);
  });

  it('uses no code for a definition without a pin (ajv compiles it in-process)', () => {
    const loaded = schemas[V25]!;
    expect(loadPinnedValidator(makeCacheDir(), loaded.sha256, loaded.schema, 'definitions', 'NoSuchDefinition')).toBeUndefined();
    expect(loadPinnedValidator(makeCacheDir(), '0'.repeat(64), loaded.schema, 'definitions', 'JSONRPCResponse')).toBeUndefined();
  });

  it('names the code that judged each definition, and judges as the in-process compile does', () => {
    const dir = makeCacheDir();
    const cached = createSchemaValidator(schemas, { codeCacheDir: dir });
    const compiled = createSchemaValidator(schemas);
    expect(cached.checkResponseMessage(V25, badResponse)).toEqual(compiled.checkResponseMessage(V25, badResponse));
    const used = cached.listUsedCode();
    expect(used.map((code) => `${code.version} ${code.definition}`).sort()).toEqual([`${V25} CallToolResult`, `${V25} JSONRPCResponse`]);
    for (const code of used) {
      expect(code.sha256).toBe(readValidatorCodePins()!.schemas[schemas[V25]!.sha256]!.codes[code.definition]);
      expect(code.path).toBe(getValidatorCodePath(dir, code.definition, code.sha256));
    }
    expect(compiled.listUsedCode()).toEqual([]);
  });
});
