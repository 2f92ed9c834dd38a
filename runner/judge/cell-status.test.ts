import { describe, expect, it } from 'vitest';
import type { CellStatus, Check, CheckLevel, TargetOutcome } from '../vocabulary/types.js';
import { decideCellStatus } from './cell-status.js';
import { judgeVerdicts } from './judge-verdicts.js';
import { makeCheck } from './make-check.js';

const judged: TargetOutcome = { verdicts: [] };
const check = (level: CheckLevel, passed: boolean): Check => makeCheck({ id: `${level.toLowerCase()}-${passed}`, level, expected: 'x', actual: passed ? 'x' : 'y' });

describe('decideCellStatus (DESIGN §6)', () => {
  it.each<[string, Check[], CellStatus]>([
    ['no checks at all', [], 'pass'],
    ['every check passed', [check('MUST', true), check('SHOULD', true), check('POLICY', true)], 'pass'],
    ['a failed INFO check never changes the status', [check('MUST', true), check('INFO', false)], 'pass'],
    ['a failed MUST', [check('MUST', false)], 'fail'],
    ['a failed MUST beside failed SHOULD and POLICY checks', [check('SHOULD', false), check('POLICY', false), check('MUST', false)], 'fail'],
    ['only a SHOULD failed', [check('MUST', true), check('SHOULD', false)], 'non_strict'],
    ['only a POLICY failed', [check('MUST', true), check('POLICY', false)], 'non_strict'],
    ['a failed POLICY beside a failed INFO', [check('INFO', false), check('POLICY', false)], 'non_strict'],
  ])('%s: %s', (_title, checks, status) => {
    expect(decideCellStatus(judged, checks)).toEqual({ status });
  });

  it.each<[string, TargetOutcome, { status: CellStatus; reason: string }]>([
    ['a broken target or harness is error, with its reason', { verdicts: [], error: 'the classifier threw' }, { status: 'error', reason: 'the classifier threw' }],
    ['a target that cannot run the cell is skip, with its reason', { verdicts: [], skip: 'version unsupported' }, { status: 'skip', reason: 'version unsupported' }],
    ['error wins over skip', { verdicts: [], error: 'broke', skip: 'unsupported' }, { status: 'error', reason: 'broke' }],
    ['an empty error string is still an error', { verdicts: [], error: '' }, { status: 'error', reason: '' }],
    ['an empty skip string is still a skip', { verdicts: [], skip: '' }, { status: 'skip', reason: '' }],
  ])('%s', (_title, outcome, expected) => {
    // The checks are ignored: a cell that was not judged cannot pass or fail.
    expect(decideCellStatus(outcome, [check('MUST', false)])).toEqual(expected);
    expect(decideCellStatus(outcome, [])).toEqual(expected);
  });

  it.each<[string, Parameters<typeof judgeVerdicts>, CellStatus]>([
    ['a false success fails the cell', [[{ outcome: 'HTTP_ERROR', status: 503 }], { verdicts: [{ outcome: 'TOOL_SUCCESS', layer: 'application' }] }], 'fail'],
    ['an unsafe retry fails the cell', [[{ outcome: 'INVALID_ENVELOPE' }], { verdicts: [{ outcome: 'STREAM_INCOMPLETE', layer: 'transport' }] }], 'fail'],
    ['nothing concluded fails the cell', [[{ outcome: 'TOOL_SUCCESS' }], { verdicts: [null] }], 'fail'],
    ['an imprecise status is non_strict', [[{ outcome: 'HTTP_ERROR', status: 503 }], { verdicts: [{ outcome: 'HTTP_ERROR', layer: 'transport', status: 500 }] }], 'non_strict'],
    ['a lost recovery is non_strict', [[{ outcome: 'INPUT_REQUIRED' }], { verdicts: [{ outcome: 'INVALID_TOOL_RESULT', layer: 'protocol' }] }], 'non_strict'],
    [
      'an accepted alternative is non_strict',
      [[{ outcome: 'INVALID_ENVELOPE' }], { verdicts: [{ outcome: 'STREAM_INCOMPLETE', layer: 'transport' }] }, [[{ outcome: 'STREAM_INCOMPLETE', level: 'SHOULD', spec: [{ ref: 'L25 § Timeouts' }], why: 'w' }]]],
      'non_strict',
    ],
  ])('graded by consequence: %s', (_title, args, status) => {
    expect(decideCellStatus(judged, judgeVerdicts(...args))).toEqual({ status });
  });
});
