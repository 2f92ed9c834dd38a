import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { describeRequiring, describeWithSchemas, getTestSchemasDir } from '../../test/describe-requiring.js';
import { getSchemaRequirement, getSpecExamplesRequirement } from '../../test/requirements.js';
import type { ProtocolVersion } from '../vocabulary/types.js';
import { resolveSchemas } from './load-schemas.js';
import { createSchemaValidator, SchemaDefinitionError, type SchemaValidator } from './validator.js';

const sharedDir = getTestSchemasDir();
const V25: ProtocolVersion = '2025-11-25';
const V26: ProtocolVersion = '2026-07-28';
const T = { type: 'text', text: 'x' };
const META26 = { 'io.modelcontextprotocol/protocolVersion': V26, 'io.modelcontextprotocol/clientCapabilities': {} };
const ok25 = { content: [T] };
const ok26 = { content: [T], resultType: 'complete' };
const response = (result: unknown) => ({ jsonrpc: '2.0', id: 1, result });

let validator: SchemaValidator;
if (getSchemaRequirement().available) beforeAll(async () => {
  validator = createSchemaValidator(await resolveSchemas({ env: { MCP_SCHEMAS_DIR: sharedDir }, download: false }));
});

// The specification's example messages come with a checkout of the spec, not with the schema
// cache: a clone that found its schemas in the cache has none (test/requirements.ts decides).
const examplesDir = join(sharedDir, V26, 'examples');
const examplesRequirement = getSpecExamplesRequirement();
const examples = examplesRequirement.available
  ? readdirSync(examplesDir).flatMap((definition) =>
      readdirSync(join(examplesDir, definition))
        .filter((file) => file.endsWith('.json'))
        .map((file) => [definition, file] as const),
    )
  : [];

describeRequiring(examplesRequirement, 'spec examples corpus', () => {
  it('has the 129 published examples', () => {
    expect(examples).toHaveLength(129);
  });

  it.each(examples)('%s/%s validates against its definition', (definition, file) => {
    const value: unknown = JSON.parse(readFileSync(join(examplesDir, definition, file), 'utf8'));
    expect(validator.validateDefinition(V26, definition, value)).toEqual({ valid: true, errors: [] });
  });
});

// WIRE-FACTS §0 (S1–S9) as data: [fact, definition, instance, valid in 2025-11-25, valid in 2026-07-28];
// 'absent' means the version has no such definition.
type Expect = boolean | 'absent';
const FACTS: [string, string, unknown, Expect, Expect][] = [
  ['S1 InputRequiredResult exists only in 2026', 'InputRequiredResult', { resultType: 'input_required', requestState: 's' }, 'absent', true],
  ['S1 UnsupportedProtocolVersionError only in 2026', 'UnsupportedProtocolVersionError', {}, 'absent', false],
  ['S1 InitializeResult only in 2025', 'InitializeResult', { protocolVersion: V25, capabilities: {}, serverInfo: { name: 's', version: '1' } }, true, 'absent'],
  ['S1 URLElicitationRequiredError only in 2025', 'URLElicitationRequiredError', {}, false, 'absent'],
  ['S2 result without resultType', 'CallToolResult', ok25, true, false],
  ['S2 structuredContent array', 'CallToolResult', { ...ok26, structuredContent: [1, 2] }, false, true],
  ['S2 structuredContent null', 'CallToolResult', { ...ok26, structuredContent: null }, false, true],
  ['S2 structuredContent string', 'CallToolResult', { ...ok26, structuredContent: 's' }, false, true],
  ['S2 structuredContent number', 'CallToolResult', { ...ok26, structuredContent: 3 }, false, true],
  ['S2 structuredContent object', 'CallToolResult', { ...ok26, structuredContent: { a: 1 } }, true, true],
  ['S2 content missing', 'CallToolResult', { resultType: 'complete' }, false, false],
  ['S2 content as one object', 'CallToolResult', { content: T, resultType: 'complete' }, false, false],
  ['S2 content []', 'CallToolResult', { content: [], resultType: 'complete' }, true, true],
  ['S2 isError "true"', 'CallToolResult', { ...ok26, isError: 'true' }, false, false],
  ['S2 tool_use block in content', 'CallToolResult', { ...ok26, content: [{ type: 'tool_use', id: 'a', name: 'n', input: {} }] }, false, false],
  ['S2 resultType "bogus" passes the schema', 'CallToolResult', { ...ok26, resultType: 'bogus' }, true, true],
  ['S3 union accepts {resultType:"complete"} without content', 'CallToolResultResponse', response({ resultType: 'complete' }), 'absent', true],
  ['S3 input_required with neither inputRequests nor requestState', 'InputRequiredResult', { resultType: 'input_required' }, 'absent', true],
  ['S3 inputRequests method ping', 'InputRequiredResult', { resultType: 'input_required', inputRequests: { k: { method: 'ping' } } }, 'absent', false],
  ['S3 inputRequests roots/list without params', 'InputRequiredResult', { resultType: 'input_required', inputRequests: { k: { method: 'roots/list' } } }, 'absent', true],
  ['S3 inputRequests elicitation without params', 'InputRequiredResult', { resultType: 'input_required', inputRequests: { k: { method: 'elicitation/create' } } }, 'absent', false],
  ['S3 requestState as object', 'InputRequiredResult', { resultType: 'input_required', requestState: { a: 1 } }, 'absent', false],
  ['S4 RequestId "1"', 'RequestId', '1', true, true],
  ['S4 RequestId 1.0 (an integer to JSON Schema)', 'RequestId', JSON.parse('1.0'), true, true],
  ['S4 RequestId 1.5', 'RequestId', 1.5, false, false],
  ['S4 RequestId null', 'RequestId', null, false, false],
  ['S4 error response without id', 'JSONRPCErrorResponse', { jsonrpc: '2.0', error: { code: -32603, message: 'm' } }, true, true],
  ['S4 error response id null', 'JSONRPCErrorResponse', { jsonrpc: '2.0', id: null, error: { code: -32603, message: 'm' } }, false, false],
  ['S4 error code -32603.5', 'JSONRPCErrorResponse', { jsonrpc: '2.0', id: 1, error: { code: -32603.5, message: 'm' } }, false, false],
  ['S4 error code as string', 'JSONRPCErrorResponse', { jsonrpc: '2.0', id: 1, error: { code: '-32603', message: 'm' } }, false, false],
  ['S4 error without message', 'JSONRPCErrorResponse', { jsonrpc: '2.0', id: 1, error: { code: -32603 } }, false, false],
  ['S4 jsonrpc "1.0"', 'JSONRPCResultResponse', { jsonrpc: '1.0', id: 1, result: ok26 }, false, false],
  ['S4 result and error together', 'JSONRPCMessage', { jsonrpc: '2.0', id: 1, result: ok26, error: { code: 1, message: 'm' } }, true, true],
  ['S4 batch array', 'JSONRPCMessage', [response(ok26)], false, false],
  ['S4 2026 Result requires resultType in the generic envelope', 'JSONRPCResultResponse', response(ok25), true, false],
  ['S5 text block without text', 'ContentBlock', { type: 'text' }, false, false],
  ['S5 image without mimeType', 'ContentBlock', { type: 'image', data: 'AA==' }, false, false],
  ['S5 resource_link with name', 'ContentBlock', { type: 'resource_link', uri: 'file:///a', name: 'a' }, true, true],
  ['S5 resource without text or blob', 'ContentBlock', { type: 'resource', resource: { uri: 'file:///a' } }, false, false],
  ['S5 video block', 'ContentBlock', { type: 'video', data: 'AA==', mimeType: 'video/mp4' }, false, false],
  ['S5 priority 1.5', 'ContentBlock', { ...T, annotations: { priority: 1.5 } }, false, false],
  ['S6 -32022 without data', 'UnsupportedProtocolVersionError', { jsonrpc: '2.0', id: 1, error: { code: -32022, message: 'm' } }, 'absent', false],
  ['S6 -32021 without data', 'MissingRequiredClientCapabilityError', { jsonrpc: '2.0', id: 1, error: { code: -32021, message: 'm' } }, 'absent', false],
  ['S6 -32020 without data', 'HeaderMismatchError', { jsonrpc: '2.0', id: 1, error: { code: -32020, message: 'm' } }, 'absent', true],
  ['S6 -32042 needs data.elicitations', 'URLElicitationRequiredError', { jsonrpc: '2.0', id: 1, error: { code: -32042, message: 'm', data: {} } }, false, 'absent'],
  ['S7 tools/call params name only', 'CallToolRequestParams', { name: 't' }, true, false],
  ['S7 _meta without clientCapabilities', 'CallToolRequestParams', { name: 't', _meta: { 'io.modelcontextprotocol/protocolVersion': V26 } }, true, false],
  ['S7 MRTR follow-up params', 'CallToolRequestParams', { name: 't', _meta: META26, inputResponses: { k: { action: 'accept' } }, requestState: 'abc' }, true, true],
  ['S7 URL elicitation without elicitationId', 'ElicitRequestURLParams', { mode: 'url', message: 'm', url: 'https://x' }, false, true],
  ['S7 tools/call request without _meta', 'CallToolRequest', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 't' } }, true, false],
  ['S8 outputSchema type array', 'Tool', { name: 't', inputSchema: { type: 'object' }, outputSchema: { type: 'array' } }, false, true],
  ['S8 inputSchema without type', 'Tool', { name: 't', inputSchema: {} }, false, false],
  ['S9 ListToolsResult with tools only', 'ListToolsResult', { tools: [] }, true, false],
  ['S9 2026 ListToolsResult complete', 'ListToolsResult', { tools: [], resultType: 'complete', ttlMs: 0, cacheScope: 'public' }, true, true],
];

describeWithSchemas('WIRE-FACTS §0 against ajv', () => {
  it.each(FACTS)('%s (%s)', (_fact, definition, instance, v25, v26) => {
    for (const [version, want] of [[V25, v25], [V26, v26]] as const) {
      if (want === 'absent') {
        expect(validator.hasDefinition(version, definition), `${definition} in ${version}`).toBe(false);
      } else {
        const result = validator.validateDefinition(version, definition, instance);
        expect(result.valid, `${version}: ${result.errors.join('; ')}`).toBe(want);
        expect(result.errors.length > 0).toBe(!want);
      }
    }
  });

  it('has at least 8 shapes valid under one version and invalid under the other', () => {
    const split = FACTS.filter(([, , , v25, v26]) => typeof v25 === 'boolean' && typeof v26 === 'boolean' && v25 !== v26);
    expect(split.length).toBeGreaterThanOrEqual(8);
  });
});

describeWithSchemas('readable errors', () => {
  it.each([
    [V26, response({ content: T, isError: 'true', resultType: 'complete' }), ['/result/content: must be array (got object)', '/result/isError: must be boolean (got string)']],
    [V26, response({ ...ok26, content: [{ type: 'text' }] }), ["/result/content/0: must have required property 'text'"]],
    [V25, response({ content: [{ type: 'video' }] }), ['/result/content/0/type: must be one of "text", "image", "audio", "resource_link", "resource" (got "video")']],
    [V25, { jsonrpc: '2.0', id: null, error: { code: 'x', message: 'm' } }, ['/error/code: must be integer (got string)', '/id: must be string or integer (got null)']],
    [V26, response({ resultType: 'input_required', inputRequests: { k: { method: 'ping' } } }), ['/result/inputRequests/k/method: must be one of "sampling/createMessage", "roots/list", "elicitation/create" (got "ping")']],
  ] as const)('%s: names the path and the problem', (version, message, errors) => {
    expect(validator.checkResponseMessage(version, message).errors).toEqual(errors);
  });

  it('caps the number of errors', () => {
    const content = Array.from({ length: 20 }, () => ({ type: 'text' }));
    const { errors } = validator.validateDefinition(V25, 'CallToolResult', { content });
    expect(errors).toHaveLength(8);
    expect(errors.at(-1)).toBe('… and 13 more');
  });

  it('rejects an unknown definition with a suggestion', () => {
    expect(() => validator.validateDefinition(V25, 'CallToolResutl', {})).toThrow(SchemaDefinitionError);
    expect(() => validator.validateDefinition(V25, 'CallToolResutl', {})).toThrow(/did you mean CallToolResult\?/);
  });
});
