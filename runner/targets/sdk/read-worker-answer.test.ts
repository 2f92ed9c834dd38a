// Reading a worker's answer: each call's mapped result becomes a verdict, "nothing concluded"
// (the library hung or died) or an adapter gap, which makes the cell `error` of kind adapter-gap.
import { describe, expect, it } from 'vitest';
import { readWorkerAnswer } from './read-worker-answer.js';

const observed = { calls: [{ threw: { class: 'Odd', name: 'Odd', message: 'odd' } }], toolCallsSent: 1 };

describe('readWorkerAnswer', () => {
  it('reads verdicts and "none" as the calls\' conclusions, and keeps the observation', () => {
    const outcome = readWorkerAnswer({ results: [{ verdict: { outcome: 'HTTP_ERROR', status: 503, detail: 'x' } }, { none: 'hung' }], observed, notes: [] }, 2, 5);
    expect(outcome.error).toBeUndefined();
    expect(outcome.verdicts).toEqual([{ outcome: 'HTTP_ERROR', layer: 'transport', status: 503, detail: 'x' }, null]);
    expect(outcome.observed).toEqual(observed);
  });

  it('makes a gap an error of kind adapter-gap, naming it in the reason and in stderr, never a missing verdict', () => {
    const outcome = readWorkerAnswer({ results: [{ gap: 'ai-sdk has no mapping for a thrown Odd: odd' }], observed, notes: ['a note'] }, 1, 5);
    expect(outcome.errorKind).toBe('adapter-gap');
    expect(outcome.error).toBe('adapter gap (not measured: the adapter cannot read what the library did): call 1: ai-sdk has no mapping for a thrown Odd: odd');
    expect(outcome.run?.stderr).toBe(`${outcome.error}\na note`);
    expect(outcome.observed).toEqual(observed);
  });

  it('counts a missing or unreadable result as a gap too', () => {
    expect(readWorkerAnswer({ results: [] }, 1, 5)).toMatchObject({ errorKind: 'adapter-gap', error: expect.stringMatching(/call 1: the worker gave no result for the call/) });
    expect(readWorkerAnswer({ results: [{ odd: 1 }] }, 1, 5)).toMatchObject({ errorKind: 'adapter-gap', error: expect.stringMatching(/unreadable result/) });
  });

  it('leaves out the tools/call count when the worker could not see it (mcp-remote): the runner counts the recording', () => {
    expect(readWorkerAnswer({ results: [{ none: 'died' }], observed: { calls: [] } }, 1, 5).observed).toEqual({ calls: [] });
  });
});
