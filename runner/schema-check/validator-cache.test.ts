import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProtocolVersion } from '../types.js';
import { resolveSchemas, type LoadedSchemas } from './load-schemas.js';
import { createSchemaValidator } from './validator.js';

const V26: ProtocolVersion = '2026-07-28';
const T = { type: 'text', text: 'x' };
// Valid and invalid messages, so both verdicts and error texts (unions, formats) are compared.
const samples: [string, unknown][] = [
  ['CallToolResult', { content: [T], resultType: 'complete' }],
  ['CallToolResult', { content: [{ type: 'text' }], resultType: 'complete' }],
  ['CallToolResult', { content: [{ type: 'resource_link', uri: 'not a uri', name: 'n' }], resultType: 'complete' }],
  ['CallToolResult', { content: 'nope' }],
  ['JSONRPCMessage', { jsonrpc: '2.0', id: 1, result: { content: [T] } }],
  ['JSONRPCMessage', { jsonrpc: '2.0', id: 1, error: { code: 'x', message: 1 } }],
  ['JSONRPCMessage', { jsonrpc: '1.0' }],
];

describe('compiled validator cache', () => {
  let schemas: LoadedSchemas;
  const root = mkdtempSync(join(tmpdir(), 'mem-validator-cache-'));
  beforeAll(async () => {
    schemas = await resolveSchemas({ env: { MCP_SCHEMAS_DIR: process.env.MCP_SCHEMAS_DIR! }, download: false, versions: [V26] });
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('gives the same results from the cache as from a fresh compile', () => {
    const plain = createSchemaValidator(schemas);
    const expected = samples.map(([definition, value]) => plain.validateDefinition(V26, definition, value));
    expect(expected.some((r) => r.valid) && expected.some((r) => !r.valid)).toBe(true);
    // The first cached validator compiles and writes; the second only reads.
    const writing = createSchemaValidator(schemas, { codeCacheDir: root });
    expect(samples.map(([definition, value]) => writing.validateDefinition(V26, definition, value))).toEqual(expected);
    const [folder] = readdirSync(root);
    expect(readdirSync(join(root, folder!)).sort()).toEqual(expect.arrayContaining(['CallToolResult.cjs', 'JSONRPCMessage.cjs']));
    const reading = createSchemaValidator(schemas, { codeCacheDir: root });
    expect(samples.map(([definition, value]) => reading.validateDefinition(V26, definition, value))).toEqual(expected);
  });

  it('compiles again when a cached file is broken', () => {
    createSchemaValidator(schemas, { codeCacheDir: root }).validateDefinition(V26, 'TextContent', T);
    const [folder] = readdirSync(root);
    writeFileSync(join(root, folder!, 'TextContent.cjs'), 'this is not javascript');
    const validator = createSchemaValidator(schemas, { codeCacheDir: root });
    expect(validator.validateDefinition(V26, 'TextContent', T)).toEqual({ valid: true, errors: [] });
    expect(validator.validateDefinition(V26, 'TextContent', { type: 'text' }).valid).toBe(false);
  });
});
