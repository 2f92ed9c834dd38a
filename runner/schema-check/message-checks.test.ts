import { beforeAll, expect, it } from 'vitest';
import type { ProtocolVersion } from '../vocabulary/types.js';
import { resolveSchemas } from './load-schemas.js';
import { createSchemaValidator, SchemaDefinitionError, type SchemaValidator } from './validator.js';
import { describeWithSchemas } from '../../test/describe-requiring.js';
import { getSchemaRequirement } from '../../test/requirements.js';

const V25: ProtocolVersion = '2025-11-25';
const V26: ProtocolVersion = '2026-07-28';
const T = { type: 'text', text: 'x' };
const META26 = { 'io.modelcontextprotocol/protocolVersion': V26, 'io.modelcontextprotocol/clientCapabilities': {} };
const response = (result: unknown) => ({ jsonrpc: '2.0', id: 1, result });
const failure = (error: unknown) => ({ jsonrpc: '2.0', id: 1, error });
const call = (params: unknown, id: unknown = 1) => ({ jsonrpc: '2.0', id, method: 'tools/call', params });

let validator: SchemaValidator;
// Every group here validates against the pinned schemas: without them the hook does not run.
if (getSchemaRequirement().available) beforeAll(async () => {
  validator = createSchemaValidator(await resolveSchemas({ env: { MCP_SCHEMAS_DIR: process.env.MCP_SCHEMAS_DIR }, download: false }));
});

describeWithSchemas('checkResponseMessage dispatches on resultType first', () => {
  it('finds {resultType:"complete"} without content invalid, although the 2026 union accepts it', () => {
    const message = response({ resultType: 'complete' });
    expect(validator.validateDefinition(V26, 'CallToolResultResponse', message).valid).toBe(true);
    expect(validator.checkResponseMessage(V26, message)).toMatchObject({
      definition: 'JSONRPCResultResponse + CallToolResult',
      valid: false,
      errors: ["/result: must have required property 'content'"],
    });
  });

  it.each([
    [V25, response({ content: [T] }), 'JSONRPCResultResponse + CallToolResult', true],
    [V26, response({ content: [T] }), 'JSONRPCResultResponse + CallToolResult', false],
    [V26, response({ content: [T], resultType: 'complete' }), 'JSONRPCResultResponse + CallToolResult', true],
    [V25, response({ content: [T], resultType: 'complete' }), 'JSONRPCResultResponse + CallToolResult', true],
    [V26, response({ resultType: 'input_required', requestState: 's' }), 'JSONRPCResultResponse + InputRequiredResult', true],
    [V25, response({ resultType: 'input_required', requestState: 's' }), 'JSONRPCResultResponse + CallToolResult', false],
    [V26, response({ resultType: 'input_required', inputRequests: { k: { method: 'ping' } } }), 'JSONRPCResultResponse + InputRequiredResult', false],
    [V26, response({ content: [], resultType: 'partial' }), 'CallToolResultResponse', true],
    [V26, response({ content: [T], resultType: 7 }), 'JSONRPCResultResponse + CallToolResult', false],
    [V25, failure({ code: -32603, message: 'boom' }), 'JSONRPCErrorResponse', true],
    [V26, failure({ code: -32022, message: 'm' }), 'UnsupportedProtocolVersionError', false],
    [V26, failure({ code: -32022, message: 'm', data: { supported: [V26], requested: '2099-01-01' } }), 'UnsupportedProtocolVersionError', true],
    [V25, failure({ code: -32022, message: 'm' }), 'JSONRPCErrorResponse', true],
    [V26, failure({ code: -32021, message: 'm' }), 'MissingRequiredClientCapabilityError', false],
    [V25, failure({ code: -32042, message: 'm', data: {} }), 'URLElicitationRequiredError', false],
    [V26, failure({ code: -32042, message: 'm', data: {} }), 'JSONRPCErrorResponse', true],
    [V25, [response({ content: [T] })], 'JSONRPCMessage', false],
    [V26, { jsonrpc: '2.0', id: 1 }, 'JSONRPCResponse', false],
  ] as const)('%s %j → %s (valid: %s)', (version, message, definition, valid) => {
    const check = validator.checkResponseMessage(version, message);
    expect({ definition: check.definition, valid: check.valid }).toEqual({ definition, valid });
    expect(check.errors.length === 0).toBe(valid);
  });

  it('notes what the schema cannot say', () => {
    expect(validator.checkResponseMessage(V26, response({ content: [], resultType: 'partial' })).notes[0]).toMatch(/looser than the spec/);
    expect(validator.checkResponseMessage(V26, response({ resultType: 'input_required' })).notes[0]).toMatch(/neither inputRequests nor requestState/);
    const both = { ...response({ content: [T] }), error: { code: 1, message: 'm' } };
    expect(validator.checkResponseMessage(V25, both)).toMatchObject({ valid: true, notes: [expect.stringMatching(/both result and error/)] });
    expect(validator.checkResponseMessage(V25, [1]).notes).toEqual(['a JSON array (batch) is not a single JSON-RPC message']);
  });
});

describeWithSchemas('checkRequestMessage', () => {
  it.each([
    [V25, call({ name: 't', arguments: { input: 'x' } }), 'CallToolRequest', true],
    [V26, call({ name: 't', arguments: { input: 'x' } }), 'CallToolRequest', false],
    [V26, call({ name: 't', _meta: META26 }), 'CallToolRequest', true],
    [V26, call({ name: 't', _meta: META26, inputResponses: { k: { action: 'accept', content: {} } }, requestState: 'abc' }, 2), 'CallToolRequest', true],
    [V26, call({ name: 't', _meta: META26, requestState: { no: 'string' } }, 2), 'CallToolRequest', false],
    [V25, call({ name: 't' }, null), 'CallToolRequest', false],
    [V25, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: V25, capabilities: {}, clientInfo: { name: 'c', version: '1' } } }, 'InitializeRequest', true],
    [V25, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: V25, capabilities: {} } }, 'InitializeRequest', false],
    [V26, { jsonrpc: '2.0', id: 0, method: 'initialize', params: {} }, 'JSONRPCRequest', true],
    [V25, { jsonrpc: '2.0', method: 'notifications/initialized' }, 'InitializedNotification', true],
    [V25, { jsonrpc: '2.0', id: 5, result: { action: 'accept' } }, 'JSONRPCResponse', true],
  ] as const)('%s %j → %s (valid: %s)', (version, message, definition, valid) => {
    expect(validator.checkRequestMessage(version, message)).toMatchObject({ definition, valid });
  });

  it('labels the MRTR follow-up and methods a version lacks', () => {
    const followUp = call({ name: 't', _meta: META26, requestState: 'abc' }, 2);
    expect(validator.checkRequestMessage(V26, followUp).notes).toEqual(['MRTR follow-up (inputResponses/requestState)']);
    expect(validator.checkRequestMessage(V26, { jsonrpc: '2.0', id: 0, method: 'initialize' }).notes).toEqual([
      'method "initialize" is not defined in 2026-07-28',
    ]);
  });
});

describeWithSchemas('detectAndValidate', () => {
  it('checks a response under both versions and passes when one accepts it', () => {
    const result = validator.detectAndValidate(response({ content: [T] }));
    expect(result).toMatchObject({ kind: 'response', versionFrom: 'all', valid: true });
    expect(result.checks.map((c) => [c.version, c.valid])).toEqual([['2025-03-26', true], ['2025-06-18', true], [V25, true], [V26, false]]);
  });

  it('uses the version a 2026 request declares in _meta', () => {
    const result = validator.detectAndValidate(call({ name: 't', _meta: { ...META26, 'io.modelcontextprotocol/clientCapabilities': 5 } }));
    expect(result).toMatchObject({ kind: 'request', versionFrom: 'message', valid: false });
    expect(result.checks.map((c) => c.version)).toEqual([V26]);
  });

  it('honours an explicit version', () => {
    expect(validator.detectAndValidate(response({ content: [T] }), { version: V26 })).toMatchObject({ versionFrom: 'option', valid: false });
  });

  it('checks a named definition and skips versions without it', () => {
    const result = validator.detectAndValidate({ resultType: 'input_required', requestState: 's' }, { definition: 'InputRequiredResult' });
    expect(result.checks.map((c) => [c.version, c.definition, c.valid])).toEqual([[V26, 'InputRequiredResult', true]]);
    expect(result.skipped).toEqual(
      ['2025-03-26', '2025-06-18', V25].map((version) => ({ version, reason: `InputRequiredResult is not defined in ${version}` })),
    );
    expect(() => validator.detectAndValidate({}, { definition: 'CallToolResults' })).toThrow(SchemaDefinitionError);
  });
});
