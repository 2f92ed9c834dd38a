// A run of one family at three versions (ts-sdk@1.23.1, 1.24.3, 1.25.3) beside the reference,
// with a fix, a regression carrying a consequence, another outcome, a skip between versions and an
// error (which ranks with fail: a regression into it, a fix out of it):
// the input of the trend view tests (unit, summary.md and the browser test).
import type { Cell, RunResult, Verdict } from '../runner/vocabulary/types.js';
import { makeCell, makeCheck, makeRunResult } from './make-run-result.js';

const VERSIONS = ['1.23.1', '1.24.3', '1.25.3'] as const;
const v = (outcome: Verdict['outcome'], extra: Partial<Verdict> = {}): Verdict => ({ outcome, layer: outcome === 'HTTP_ERROR' ? 'transport' : 'application', ...extra });
const failed = (consequence?: 'false-success' | 'false-failure') =>
  [makeCheck({ passed: false, message: 'outcome differs', ...(consequence ? { consequence } : {}) })];

/** [status, actual verdict or null] per version, per row (case id). */
const ROWS: Record<string, [Cell['status'], Verdict | null][]> = {
  // 1.24.3 fixes it: the plain Error becomes HTTP_ERROR with its status.
  'http-503': [['fail', null], ['pass', v('HTTP_ERROR', { status: 503 })], ['pass', v('HTTP_ERROR', { status: 503 })]],
  // 1.25.3 regresses: a broken result reads as success.
  'result-missing-content': [['pass', v('INVALID_TOOL_RESULT')], ['pass', v('INVALID_TOOL_RESULT')], ['fail', v('TOOL_SUCCESS')]],
  // Still failing, with another outcome in 1.25.3.
  'jsonrpc-error': [['fail', v('TOOL_ERROR')], ['fail', v('TOOL_ERROR')], ['fail', v('NO_RESPONSE')]],
  // Skipped by 1.24.3: 1.25.3 compares with 1.23.1.
  'skipped-middle': [['fail', null], ['skip', null], ['pass', v('TOOL_SUCCESS')]],
  baseline: [['pass', v('TOOL_SUCCESS')], ['pass', v('TOOL_SUCCESS')], ['pass', v('TOOL_SUCCESS')]],
  // 1.24.3's worker broke: a regression for its user, fixed again in 1.25.3.
  'worker-timeout': [['pass', v('TOOL_SUCCESS')], ['error', null], ['pass', v('TOOL_SUCCESS')]],
};

export function makeTrendRunResult(): RunResult {
  const cells: Cell[] = [];
  for (const [caseId, perVersion] of Object.entries(ROWS)) {
    perVersion.forEach(([status, verdict], i) => {
      const falseSuccess = verdict?.outcome === 'TOOL_SUCCESS' && status === 'fail';
      cells.push(
        makeCell({
          case: caseId,
          target: `ts-sdk@${VERSIONS[i]}`,
          status,
          actual: status === 'skip' || status === 'error' ? [] : [verdict],
          ...(status === 'fail' ? { checks: failed(falseSuccess ? 'false-success' : verdict === null ? undefined : 'false-failure') } : {}),
        }),
      );
    });
    cells.push(makeCell({ case: caseId, target: 'reference', status: 'pass' }));
  }
  return makeRunResult({
    targets: [{ name: 'reference', kind: 'classifier', version: '0.1.0' }, ...VERSIONS.map((version) => ({ name: `ts-sdk@${version}`, kind: 'client', version }))],
    cells,
  });
}
