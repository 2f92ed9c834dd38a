import { describe, expect, test } from 'vitest';
import { checkInputRequest } from './check-input-request.js';

const schema = { type: 'object', properties: { ok: { type: 'boolean' } } };

describe('checkInputRequest (MR26 § InputRequiredResult, ST26 InputRequest)', () => {
  test.each<[string, unknown]>([
    ['a form elicitation', { method: 'elicitation/create', params: { mode: 'form', message: 'm', requestedSchema: schema } }],
    ['a form elicitation without mode (form is the default)', { method: 'elicitation/create', params: { message: 'm', requestedSchema: schema } }],
    ['a URL elicitation', { method: 'elicitation/create', params: { mode: 'url', message: 'm', url: 'https://example.test/x' } }],
    ['a sampling request', { method: 'sampling/createMessage', params: {} }],
    ['a roots request without params', { method: 'roots/list' }],
    ['a roots request with params that are not an object (it takes none)', { method: 'roots/list', params: 1 }],
  ])('accepts %s', (_title, request) => {
    expect(checkInputRequest(request)).toBeUndefined();
  });

  // The problem follows "inputRequests.<key> " in the verdict's detail.
  test.each<[string, unknown, string]>([
    ['a string', 'elicitation/create', 'is not an elicitation, sampling or roots request'],
    ['a ping (not a kind of input)', { method: 'ping' }, 'is not an elicitation, sampling or roots request'],
    ['a numeric method', { method: 1 }, 'is not an elicitation, sampling or roots request'],
    ['an elicitation without params', { method: 'elicitation/create' }, '(elicitation/create) has no params object'],
    ['a sampling request with params in a list', { method: 'sampling/createMessage', params: [] }, '(sampling/createMessage) has no params object'],
    ['an elicitation without message', { method: 'elicitation/create', params: { requestedSchema: schema } }, '(elicitation/create) has no message'],
    ['a URL elicitation without message', { method: 'elicitation/create', params: { mode: 'url', url: 'https://example.test/x' } }, '(elicitation/create) has no message'],
    ['a URL elicitation without url', { method: 'elicitation/create', params: { mode: 'url', message: 'm' } }, '(elicitation/create, url mode) has no url'],
    ['a URL elicitation with a numeric url', { method: 'elicitation/create', params: { mode: 'url', message: 'm', url: 1 } }, '(elicitation/create, url mode) has no url'],
    ['an elicitation of an unknown mode', { method: 'elicitation/create', params: { mode: 'voice', message: 'm', requestedSchema: schema } }, '(elicitation/create) has the unknown mode "voice"'],
    ['a form elicitation without requestedSchema', { method: 'elicitation/create', params: { mode: 'form', message: 'm' } }, '(elicitation/create, form mode) has no requestedSchema object'],
    ['a form elicitation whose schema is a string', { method: 'elicitation/create', params: { message: 'm', requestedSchema: 'object' } }, '(elicitation/create, form mode) has no requestedSchema object'],
    ['a form elicitation whose schema is not of type object', { method: 'elicitation/create', params: { message: 'm', requestedSchema: { ...schema, type: 'string' } } }, '(elicitation/create, form mode) requestedSchema is not an object schema with properties'],
    ['a form elicitation whose schema has no properties', { method: 'elicitation/create', params: { message: 'm', requestedSchema: { type: 'object' } } }, '(elicitation/create, form mode) requestedSchema is not an object schema with properties'],
  ])('refuses %s, saying so', (_title, request, problem) => {
    expect(checkInputRequest(request)).toBe(problem);
  });
});
