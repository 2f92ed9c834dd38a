import { expect, test } from 'vitest';
import { classifyNaive } from './naive.js';
import { makeClassifierInput as input } from './test-inputs.js';

test.each([
  [200, 'TOOL_SUCCESS', undefined],
  [202, 'TOOL_SUCCESS', undefined],
  [500, 'HTTP_ERROR', 500],
  [404, 'HTTP_ERROR', 404],
  [0, 'NO_RESPONSE', undefined],
] as const)('status %i alone gives %s, whatever the body', (status, outcome, verdictStatus) => {
  const verdict = classifyNaive(input({ status, body: '{unclosed' }));
  expect(verdict.outcome).toBe(outcome);
  expect(verdict.status).toBe(verdictStatus);
});

test.each<[number, string, number | undefined, string]>([
  [199, 'HTTP_ERROR', 199, 'HTTP status 199'],
  [200, 'TOOL_SUCCESS', undefined, 'HTTP status 200'],
  [299, 'TOOL_SUCCESS', undefined, 'HTTP status 299'],
  [300, 'HTTP_ERROR', 300, 'HTTP status 300'],
  [-1, 'NO_RESPONSE', undefined, 'no status line'],
  [Number.NaN, 'NO_RESPONSE', undefined, 'no status line'],
])('the 2xx range is success, bounds included: status %d gives %s, %s, detail %s', (status, outcome, verdictStatus, detail) => {
  const verdict = classifyNaive(input({ status, body: '' }));
  expect(verdict).toMatchObject({ outcome, detail });
  expect(verdict.status).toBe(verdictStatus);
});
