import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { createSchemaValidator, resolveSchemas } from '../../runner/schema-check/index.js';
import { createClassifierProperties, frameSse, makeInput } from './classifier-fuzz.js';
import { applyMutation, listPaths, toPointer } from './json-mutation.js';
import { classifyReference } from '../../runner/classify/reference.js';
import { describeWithSchemas } from '../describe-requiring.js';
import { getSchemaRequirement } from '../requirements.js';

const SEED = 20260728;
const RUNS = 2000;

const validator = getSchemaRequirement().available ? createSchemaValidator(await resolveSchemas({ env: process.env, download: false })) : undefined;

describeWithSchemas('reference classifier under fuzzing (fixed seed, bounded runs)', () => {
  test('the schema validator is available (MCP_SCHEMAS_DIR from vitest config)', () => {
    expect(validator).toBeDefined();
  });
  for (const { name, property } of createClassifierProperties(validator)) {
    test(name, () => {
      fc.assert(property, { seed: SEED, numRuns: RUNS });
    });
  }
});

describe('fuzz helpers', () => {
  test('mutations edit one path of a copy', () => {
    const original = { a: [1, { b: 'x' }] };
    expect(listPaths(original).map(toPointer)).toEqual(['', '/a', '/a/0', '/a/1', '/a/1/b']);
    expect(applyMutation(original, { kind: 'delete', pick: 4, value: null })).toEqual({ a: [1, {}] });
    expect(applyMutation(original, { kind: 'wrong-type', pick: 2, value: null })).toEqual({ a: ['1', { b: 'x' }] });
    expect(original).toEqual({ a: [1, { b: 'x' }] });
  });
  test('SSE framing with split data lines keeps a success a success', () => {
    const text = JSON.stringify({ jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'a b' }] } });
    const body = frameSse([text], { lineEnd: '\r', bom: true, comments: true, eventIds: true, retry: true, splitLines: true, explicitMessageEvent: true, priming: true });
    expect(classifyReference(makeInput(body, { version: '2025-11-25', id: 7, contentType: 'text/event-stream' })).outcome).toBe('TOOL_SUCCESS');
  });
});
