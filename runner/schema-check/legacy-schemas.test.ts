// The draft-07 schemas of 2025-03-26 and 2025-06-18, checked through the same validator as the
// 2020-12 ones: valid and invalid messages built from the schema deltas of WIRE-FACTS-LEGACY §7
// (check ids D1–D19 of verify-legacy-facts.js), each with its verdict under the three 2025
// versions. A flipped row fails, so the validator's class, container and ref handling per
// dialect are what these rows pin down.
import { beforeAll, expect, it } from 'vitest';
import { describeWithSchemas, getTestSchemasDir } from '../../test/describe-requiring.js';
import { getSchemaRequirement } from '../../test/requirements.js';
import type { ProtocolVersion } from '../vocabulary/types.js';
import { resolveSchemas } from './load-schemas.js';
import { createSchemaValidator, type SchemaValidator } from './validator.js';

const V0326: ProtocolVersion = '2025-03-26';
const V0618: ProtocolVersion = '2025-06-18';
const V25: ProtocolVersion = '2025-11-25';
const TEXT = { type: 'text', text: 'ok' };
const R7 = { jsonrpc: '2.0', id: 7, result: { content: [TEXT] } };
const LINK = { type: 'resource_link', uri: 'file:///project/src/main.rs', name: 'main.rs' };

let validator: SchemaValidator;
if (getSchemaRequirement().available) beforeAll(async () => {
  validator = createSchemaValidator(await resolveSchemas({ env: { MCP_SCHEMAS_DIR: getTestSchemasDir() }, download: false }));
});

type Verdicts = [v0326: boolean | 'absent', v0618: boolean | 'absent', v25: boolean | 'absent'];
// [fact, how it is checked, message, valid under 2025-03-26, 2025-06-18, 2025-11-25].
// `response` and `request` go through checkResponseMessage/checkRequestMessage (the names each
// version uses for the envelope are the validator's business); anything else names a definition.
const DELTAS: [string, string, unknown, ...Verdicts][] = [
  ['D1 [R7] is a message only in 2025-03-26 (batching)', 'JSONRPCMessage', [R7], true, false, false],
  ['D1 [] validates only in 2025-03-26 (no minItems)', 'JSONRPCMessage', [], true, false, false],
  ['D1 a mixed batch (notification + response) fails everywhere', 'JSONRPCMessage', [{ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 't', progress: 1 } }, R7], false, false, false],
  ['D1 JSONRPCBatchResponse exists only in 2025-03-26', 'JSONRPCBatchResponse', [R7], true, 'absent', 'absent'],
  ['D2 an id-less error needs 2025-11-25', 'response', { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' } }, false, false, true],
  ['D2 id null is invalid everywhere', 'response', { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }, false, false, false],
  ['D2 a string error code is invalid everywhere', 'response', { jsonrpc: '2.0', id: 7, error: { code: '-32603', message: 'x' } }, false, false, false],
  ['D3 an error checked as JSONRPCResponse: success-only before 2025-11-25', 'JSONRPCResponse', { jsonrpc: '2.0', id: 7, error: { code: -32603, message: 'Internal error' } }, false, false, true],
  ['D3 result and error together pass the schema everywhere', 'response', { ...R7, error: { code: -32603, message: 'x' } }, true, true, true],
  ['D4 resource_link is a content block from 2025-06-18', 'response', { ...R7, result: { content: [LINK] } }, false, true, true],
  ['D4 audio exists from 2025-03-26', 'response', { ...R7, result: { content: [{ type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' }] } }, true, true, true],
  ['D4 an unknown block type fails everywhere', 'response', { ...R7, result: { content: [{ type: 'video', data: 'x' }] } }, false, false, false],
  ['D5 structuredContent array: unknown key in 2025-03-26, object-only after', 'CallToolResult', { content: [TEXT], structuredContent: [1, 2] }, true, false, false],
  ['D5 structuredContent null', 'CallToolResult', { content: [TEXT], structuredContent: null, isError: true }, true, false, false],
  ['D5 structuredContent object', 'CallToolResult', { content: [TEXT], structuredContent: { temperature: 22.5 } }, true, true, true],
  ['D6 text block _meta not an object', 'CallToolResult', { content: [{ ...TEXT, _meta: 'trace-1' }] }, true, false, false],
  ['D6 embedded resource _meta not an object', 'CallToolResult', { content: [{ type: 'resource', resource: { uri: 'file:///a', text: 'x', _meta: [] } }] }, true, false, false],
  ['D7 annotations.lastModified a number', 'CallToolResult', { content: [{ ...TEXT, annotations: { lastModified: 1736694058 } }] }, true, false, false],
  ['D7 priority out of range fails everywhere', 'CallToolResult', { content: [{ ...TEXT, annotations: { priority: 2 } }] }, false, false, false],
  ['D8 resource_link icons without src', 'CallToolResult', { content: [{ ...LINK, icons: [{ sizes: ['48x48'] }] }] }, false, true, false],
  ['D9 content is required everywhere', 'CallToolResult', { isError: true }, false, false, false],
  ['D9 isError a string fails everywhere', 'CallToolResult', { content: [TEXT], isError: 'true' }, false, false, false],
  ['D10 a task-only object is never a CallToolResult', 'CallToolResult', { task: { taskId: 't', status: 'working', createdAt: 'x', lastUpdatedAt: 'x', ttl: 1 } }, false, false, false],
  ['D11 outputSchema with an array root', 'Tool', { name: 't', inputSchema: { type: 'object' }, outputSchema: { type: 'array' } }, true, false, false],
  ['D11 an unknown execution.taskSupport', 'Tool', { name: 't', inputSchema: { type: 'object' }, execution: { taskSupport: 'bogus' } }, true, true, false],
  ['D12 legacy ProgressNotification has no envelope', 'ProgressNotification', { method: 'notifications/progress', params: { progressToken: 't', progress: 1 } }, true, true, false],
  ['D12 a notification with a non-object params._meta', 'JSONRPCNotification', { jsonrpc: '2.0', method: 'notifications/x', params: { _meta: 'x' } }, false, false, true],
  ['D13 cancelled without requestId', 'request', { jsonrpc: '2.0', method: 'notifications/cancelled', params: {} }, false, false, true],
  ['D14 elicitation/create exists from 2025-06-18', 'ServerRequest', { jsonrpc: '2.0', id: 's1', method: 'elicitation/create', params: { message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } } }, false, true, true],
  ['D15 notifications/elicitation/complete exists only in 2025-11-25', 'ServerNotification', { jsonrpc: '2.0', method: 'notifications/elicitation/complete', params: { elicitationId: 'e1' } }, false, false, true],
  ['D16 ElicitResult with a string array', 'ElicitResult', { action: 'accept', content: { tags: ['a', 'b'] } }, 'absent', false, true],
  ['D17 -32042 without data: a generic error everywhere', 'response', { jsonrpc: '2.0', id: 7, error: { code: -32042, message: 'URL elicitation required' } }, true, true, false],
  ['D18 InitializeResult is the same shape in all three', 'InitializeResult', { protocolVersion: V0326, capabilities: {}, serverInfo: { name: 's', version: '1' } }, true, true, true],
  ['D19 elicitation: true as a client capability', 'ClientCapabilities', { elicitation: true }, true, false, false],
  ['a legacy tools/call request is checked with its envelope', 'request', { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 't', arguments: {} } }, true, true, true],
  ['a legacy tools/call request without jsonrpc fails its envelope', 'request', { id: 7, method: 'tools/call', params: { name: 't' } }, false, false, false],
];

describeWithSchemas('legacy schemas (2025-03-26, 2025-06-18) against 2025-11-25', () => {
  it.each(DELTAS)('%s', (_fact, how, message, ...verdicts) => {
    const got = [V0326, V0618, V25].map((version) => {
      if (how === 'response') return validator.checkResponseMessage(version, message).valid;
      if (how === 'request') return validator.checkRequestMessage(version, message).valid;
      if (!validator.hasDefinition(version, how)) return 'absent';
      return validator.validateDefinition(version, how, message).valid;
    });
    expect(got).toEqual(verdicts);
  });

  it('reads the draft-07 files with their own dialect: definitions listed, errors named', () => {
    expect(validator.listDefinitions(V0326)).toContain('JSONRPCBatchResponse');
    expect(validator.listDefinitions(V0618)).toContain('ContentBlock');
    const check = validator.checkResponseMessage(V0326, { ...R7, result: { content: [LINK] } });
    expect(check.definition).toBe('JSONRPCResponse + CallToolResult');
    expect(check.errors.join('\n')).toMatch(/\/result\/content\/0/);
  });
});
