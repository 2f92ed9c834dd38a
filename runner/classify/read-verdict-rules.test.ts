// The rules of readVerdict stated one at a time: the exact problem each refusal gives (a target's
// author reads it in the report), how an untrusted value is described, and that a field the
// target left out stays out of the verdict.
import { describe, expect, test } from 'vitest';
import { OUTCOMES, REPLAY_ADVICE, VERDICT_LAYERS } from '../vocabulary/types.js';
import { readVerdict } from './read-verdict.js';

function problemOf(value: unknown): unknown {
  const read = readVerdict(value);
  return 'problem' in read ? read.problem : read;
}

describe('each refusal names the field, what it must be, and what it got', () => {
  test.each<[string, unknown, string]>([
    ['an unknown outcome', { outcome: 'SUCCESS' }, `outcome must be one of ${OUTCOMES.join(', ')}; got "SUCCESS"`],
    ['a missing outcome', { layer: 'application' }, `outcome must be one of ${OUTCOMES.join(', ')}; got nothing`],
    ['an unknown layer', { outcome: 'TOOL_SUCCESS', layer: 'tool' }, `layer must be one of ${VERDICT_LAYERS.join(', ')}; got "tool"`],
    ['a non-string layer', { outcome: 'TOOL_SUCCESS', layer: 1 }, `layer must be one of ${VERDICT_LAYERS.join(', ')}; got 1`],
    ['a recovery that is no object', { outcome: 'TOOL_SUCCESS', recovery: 1 }, 'recovery must be an object; got 1'],
    ['a recovery that is an array', { outcome: 'TOOL_SUCCESS', recovery: [] }, 'recovery must be an object; got []'],
    [
      'an unknown replay',
      { outcome: 'TOOL_SUCCESS', recovery: { hasFinalResult: true, replay: 'always' } },
      `recovery.replay must be one of ${REPLAY_ADVICE.join(', ')}; got "always"`,
    ],
    [
      'a non-string replay',
      { outcome: 'TOOL_SUCCESS', recovery: { hasFinalResult: true, replay: 0 } },
      `recovery.replay must be one of ${REPLAY_ADVICE.join(', ')}; got 0`,
    ],
  ])('%s', (_title, value, problem) => {
    expect(problemOf(value)).toBe(problem);
  });
});

describe('an untrusted value is described in at most 80 characters', () => {
  const got = (outcome: unknown): string => String(problemOf({ outcome })).replace(/^outcome must be one of [A-Z_, ]+; got /, '');

  test('a description of 80 characters is kept whole', () => {
    const text = 'x'.repeat(78);
    expect(got(text)).toBe(`"${text}"`);
  });

  test('a longer one keeps its first 77 characters and ends with "..."', () => {
    const text = 'x'.repeat(79);
    expect(got(text)).toBe(`"${'x'.repeat(76)}...`);
  });

  test('nesting is described four levels deep', () => {
    expect(got([[[[[1]]]]])).toBe('[[[["[nested deeper than 4 levels]"]]]]');
  });
});

describe('a field the target left out stays out of the verdict', () => {
  test('no key holds undefined, whether the field was absent or null', () => {
    for (const value of [{ outcome: 'TOOL_SUCCESS' }, { outcome: 'TOOL_SUCCESS', status: null, code: null, detail: null, recovery: null }]) {
      const read = readVerdict(value);
      expect(read).toStrictEqual({ verdict: { outcome: 'TOOL_SUCCESS', layer: 'application' } });
      expect(Object.keys((read as { verdict: object }).verdict)).toEqual(['outcome', 'layer']);
    }
  });

  test('every field given is kept, and only those', () => {
    const value = { outcome: 'HTTP_ERROR', layer: 'transport', status: 503, code: -1, detail: 'd', recovery: { hasFinalResult: false, replay: 'no' } };
    expect(readVerdict(value)).toStrictEqual({ verdict: value });
  });
});
