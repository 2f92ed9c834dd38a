import { describe, expect, test } from 'vitest';
import type { ProtocolVersion } from '../vocabulary/types.js';
import { checkStructuredContent, countCompiledSchemas, MAX_COMPILED } from './check-structured-content.js';
import { classifyReference } from './reference.js';
import { makeClassifierInput, makeResultMessage, makeToolResult } from './test-inputs.js';

const weather = { type: 'object', properties: { temperature: { type: 'number' } }, required: ['temperature'] };
const pair = { type: 'object', properties: { pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }] } } };
const text = [{ type: 'text', text: 'x' }];

describe('checkStructuredContent (TL0618/TL25 § Output Schema)', () => {
  test.each<[string, Record<string, unknown>, unknown, ProtocolVersion, string | undefined]>([
    ['conforming object', { content: text, structuredContent: { temperature: 22.5 } }, weather, '2025-11-25', undefined],
    ['missing required member', { content: text, structuredContent: {} }, weather, '2025-06-18', "structuredContent does not match the tool's outputSchema (draft-07): must have required property 'temperature'"],
    ['wrong member type, path named', { content: text, structuredContent: { temperature: 'warm' } }, weather, '2026-07-28', "structuredContent.temperature does not match the tool's outputSchema (2020-12): must be number"],
    ['absent on a success', { content: text }, weather, '2025-11-25', 'the tool declares an outputSchema but the result has no structuredContent'],
    ['absent on a tool error: nothing asked', { content: text, isError: true }, weather, '2025-11-25', undefined],
    ['not conforming on a tool error: nothing asked', { content: text, isError: true, structuredContent: {} }, weather, '2025-06-18', undefined],
    ['2025-03-26 has no outputSchema', { content: text, structuredContent: {} }, weather, '2025-03-26', undefined],
    ['no declared schema', { content: text, structuredContent: {} }, undefined, '2025-11-25', undefined],
    ['prefixItems enforced under 2020-12', { content: text, structuredContent: { pair: [1, 'a'] } }, pair, '2025-11-25', "structuredContent.pair.0 does not match the tool's outputSchema (2020-12): must be string"],
    ['prefixItems ignored under draft-07 (2025-06-18)', { content: text, structuredContent: { pair: [1, 'a'] } }, pair, '2025-06-18', undefined],
  ])('%s', (_title, result, schema, version, problem) => {
    expect(checkStructuredContent(result, schema, version)).toBe(problem);
  });

  test('a schema ajv cannot compile is reported, never thrown', () => {
    const problem = checkStructuredContent({ content: text, structuredContent: {} }, { type: 'object', properties: { a: { $ref: '#/nowhere' } } }, '2025-11-25');
    expect(problem).toMatch(/^the tool's outputSchema cannot be used \(2020-12\): /);
  });

  test('the reference reads the input outputSchema: INVALID_TOOL_RESULT, and TOOL_SUCCESS without it', () => {
    const message = makeResultMessage(makeToolResult({ structuredContent: {} }));
    const withSchema = makeClassifierInput({ message, protocolVersion: '2025-11-25', outputSchema: weather });
    expect(classifyReference(withSchema).outcome).toBe('INVALID_TOOL_RESULT');
    expect(classifyReference({ ...withSchema, outputSchema: undefined }).outcome).toBe('TOOL_SUCCESS');
  });

  // ajv registers every schema it compiles under its $id, for good: schemas must not share one ajv.
  describe('each outputSchema is compiled on its own, whatever its $id', () => {
    const withId = (id: string, type: string, extra: Record<string, unknown> = {}) => ({ $id: `https://example.com/${id}`, type: 'object', properties: { a: { type } }, ...extra });
    const result = { content: text, structuredContent: { a: 1 } };

    test('two tools whose outputSchemas share an $id are each checked against their own', () => {
      expect(checkStructuredContent(result, withId('shared', 'number'), '2025-11-25')).toBeUndefined();
      expect(checkStructuredContent(result, withId('shared', 'string'), '2025-11-25')).toBe("structuredContent.a does not match the tool's outputSchema (2020-12): must be string");
    });

    test('a schema that could not be compiled leaves nothing behind: the next one with its $id is used', () => {
      const broken = withId('broken', 'number', { required: ['a'], properties: { a: { $ref: '#/nowhere' } } });
      expect(checkStructuredContent(result, broken, '2025-06-18')).toMatch(/^the tool's outputSchema cannot be used \(draft-07\): /);
      expect(checkStructuredContent(result, withId('broken', 'integer'), '2025-06-18')).toBeUndefined();
    });

    test('a schema compiled again after the bounded cache let it go is still used', () => {
      const schema = withId('evicted', 'boolean');
      const problem = "structuredContent.a does not match the tool's outputSchema (2020-12): must be boolean";
      expect(checkStructuredContent(result, schema, '2026-07-28')).toBe(problem);
      for (let index = 0; index < MAX_COMPILED; index++) {
        checkStructuredContent(result, { type: 'object', title: `filler ${index}` }, '2026-07-28');
        // Every schema is kept up to the bound, and never more.
        expect(countCompiledSchemas()).toBeGreaterThanOrEqual(Math.min(index + 2, MAX_COMPILED));
      }
      expect(countCompiledSchemas()).toBe(MAX_COMPILED);
      expect(checkStructuredContent(result, structuredClone(schema), '2026-07-28')).toBe(problem);
      // A schema already kept is answered from the cache: nothing compiled again, nothing evicted.
      checkStructuredContent(result, { type: 'object', title: `filler ${MAX_COMPILED - 1}` }, '2026-07-28');
      expect(countCompiledSchemas()).toBe(MAX_COMPILED);
    });
  });

  test('an outputSchema that is no object declares nothing to check', () => {
    for (const schema of [null, 'object', 1, true]) expect(checkStructuredContent({ content: text, structuredContent: {} }, schema, '2025-11-25')).toBeUndefined();
  });

  test('annotation and extension keywords are ignored, not refused (strict mode off)', () => {
    const annotated = { ...weather, title: 'Weather', examples: [{ temperature: 1 }], 'x-unit': 'celsius', properties: { temperature: { type: 'number', 'x-order': 1 } } };
    expect(checkStructuredContent({ content: text, structuredContent: { temperature: 1 } }, annotated, '2025-11-25')).toBeUndefined();
    expect(checkStructuredContent({ content: text, structuredContent: { temperature: 1 } }, annotated, '2025-06-18')).toBeUndefined();
  });

  test('a schema ajv cannot use is reported with what ajv said, not checked against the meta-schema', () => {
    const problem = checkStructuredContent({ content: text, structuredContent: {} }, { type: 'nope' }, '2025-11-25');
    expect(problem).toBe("the tool's outputSchema cannot be used (2020-12): type must be JSONType or JSONType[]: nope");
  });
});
