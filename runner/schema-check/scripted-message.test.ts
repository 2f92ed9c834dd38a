import { beforeAll, describe, expect, it } from 'vitest';
import type { Case } from '../cases/case-types.js';
import { resolveSchemas } from './load-schemas.js';
import { checkScriptedResponses, getScriptedMessage } from './scripted-message.js';
import { createSchemaValidator, type SchemaValidator } from './validator.js';
import { describeWithSchemas } from '../../test/describe-requiring.js';

const ok = { jsonrpc: '2.0', result: { content: [], resultType: 'complete' } };

describe('getScriptedMessage', () => {
  it.each([
    ['a JSON body gets the echoed id', { body: { json: ok } }, { message: { ...ok, id: 7 } }],
    ['a literal id', { id: { literal: 'x' }, body: { json: ok } }, { message: { ...ok, id: 'x' } }],
    ['an omitted id', { id: 'omit', body: { json: ok } }, { message: ok }],
    ['a raw body is taken as written', { body: { raw: '{"a":1}' } }, { message: { a: 1 } }],
    ['a raw body that is not JSON', { body: { raw: '{"a":' } }, { none: 'not JSON' }],
    ['no body', {}, { none: 'no body' }],
    [
      'the SSE response event',
      { body: { sse: { events: [{ data: { jsonrpc: '2.0', method: 'notifications/progress' } }, { data: ok, response: true }] } } },
      { message: { ...ok, id: 7 } },
    ],
    ['an SSE stream without a response', { body: { sse: { events: [{ comment: 'x' }] } } }, { none: 'the SSE stream carries no response event' }],
  ] as const)('%s', (_label, response, expected) => {
    expect(getScriptedMessage(response as never, 7)).toEqual(expected);
  });
});

describeWithSchemas('checkScriptedResponses', () => {
  let validator: SchemaValidator;
  beforeAll(async () => {
    validator = createSchemaValidator(await resolveSchemas({ env: { MCP_SCHEMAS_DIR: process.env.MCP_SCHEMAS_DIR }, download: false }));
  });

  it('reports each JSON exchange as a server-sent SchemaResult', () => {
    const testCase = {
      exchanges: [
        { response: { status: 503 }, expect: { outcome: 'HTTP_ERROR' } },
        { response: { body: { json: { jsonrpc: '2.0', result: { content: [{ type: 'text', text: 'x' }] } } } }, expect: { outcome: 'TOOL_SUCCESS' } },
      ],
    } as unknown as Case;
    expect(checkScriptedResponses(validator, testCase, '2026-07-28')).toEqual([
      {
        version: '2026-07-28',
        definition: 'JSONRPCResultResponse + CallToolResult',
        valid: false,
        errors: ["/result: must have required property 'resultType'"],
        sender: 'server',
        exchange: 1,
      },
    ]);
  });
});
