import { expect, test } from 'vitest';
import { loadCasesSync } from '../runner/cases/load-cases.js';
import { classifyNaive } from '../runner/classify/naive.js';
import { classifyReference } from '../runner/classify/reference.js';
import { runClassifierMatrix } from '../runner/index.js';
import { describeMatrix, expectCellToPass } from '../runner/vitest.js';

// The helper as a classifier author would use it: one vitest test per case and version.
describeMatrix('reference classifier through mcp-error-matrix/vitest', classifyReference);

// A known failure listed as expected runs as test.fails (and would fail if it started passing).
describeMatrix('naive classifier with its known failure listed', classifyNaive, {
  cases: ['tool-is-error'],
  expectedFailures: ['tool-is-error'],
});

test('a wrong classifier gets an error naming the case, the failed check and the repro command', async () => {
  const [loaded] = loadCasesSync().filter((item) => item.case.id === 'tool-is-error');
  await expect(expectCellToPass(classifyNaive, loaded!, '2025-11-25')).rejects.toThrow(
    /tool-is-error \[2025-11-25\] fail: .*\n {2}\[MUST\] outcome@1: expected TOOL_ERROR, got TOOL_SUCCESS\n {2}repro: npx mcp-error-matrix run/,
  );
});

test('the programmatic API returns the judged result model', async () => {
  const result = await runClassifierMatrix(classifyNaive, { name: 'mine', cases: ['baseline', 'tool-is-error'], versions: ['2026-07-28'] });
  expect(result.cells.map((cell) => [cell.case, cell.target, cell.status])).toEqual([
    ['baseline', 'mine', 'pass'],
    ['tool-is-error', 'mine', 'fail'],
  ]);
  expect(result.summary).toMatchObject({ total: 2, pass: 1, fail: 1 });
});
