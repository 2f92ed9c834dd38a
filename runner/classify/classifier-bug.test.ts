// A crash inside the reference classifier must never pass as a verdict: production turns it into
// INVALID_ENVELOPE with a "classifier bug" detail (the "never throws" promise), the project's own
// tests turn it into a throw, so a test row expecting INVALID_ENVELOPE cannot pass on a crash.
import { afterEach, describe, expect, test, vi } from 'vitest';
import { CLASSIFIER_BUG_PREFIX, createClassifier, RETHROW_CLASSIFIER_BUGS_ENV } from './reference.js';
import { makeClassifierInput, makeResultMessage, makeToolResult } from './test-inputs.js';

const crashing = createClassifier({
  checkContentBlock: () => {
    throw new TypeError('boom');
  },
});
const success = makeClassifierInput({ message: makeResultMessage(makeToolResult()) });

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('a crash inside the reference classifier', () => {
  test('the test configs rethrow it (vitest.config.ts and vitest.mutate.config.ts set the flag)', () => {
    expect(process.env[RETHROW_CLASSIFIER_BUGS_ENV]).toBe('1');
    expect(() => crashing(success)).toThrow(new TypeError('boom'));
  });

  test('without the flag it is INVALID_ENVELOPE with a "classifier bug" detail, as before', () => {
    vi.stubEnv(RETHROW_CLASSIFIER_BUGS_ENV, '');
    expect(crashing(success)).toMatchObject({ outcome: 'INVALID_ENVELOPE', layer: 'protocol', detail: `${CLASSIFIER_BUG_PREFIX}boom` });
  });
});
