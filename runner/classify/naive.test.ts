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
