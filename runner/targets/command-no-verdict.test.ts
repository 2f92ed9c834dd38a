// Clients that state no verdict are judged on what they showed (their exit status, the wire),
// and every report marks such cells: a pass always means a conclusion was seen.
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderReports } from '../../reports/index.js';
import type { LoadedCase } from '../cases/case-types.js';
import { loadCases } from '../cases/load-cases.js';
import { runMatrix, summariseCells } from '../run/run-matrix.js';
import type { Cell, RunResult, Target } from '../vocabulary/types.js';
import { ANSWERED_AT_ONCE_TIMEOUT_MS } from '../../test/answered-at-once.js';
import { resolveCommandTarget } from './command-target.js';

const ROOT = resolve(import.meta.dirname, '../..');
const fixture = (name: string): string => `command:node test/fixtures/clients/${name}.mjs`;
const CASES = ['baseline', 'tool-is-error', 'http-503-empty-body', 'malformed-json'];
const CLIENTS = ['throws-at-start', 'exits-13-silent', 'silent-exit-zero', 'conformance-style', 'correct-client'];
// Every client process is 0.2-0.5 s of CPU. The clients without a verdict run on every case; the
// two controls, whose judgement does not depend on the case, on one that gave a result and one
// that failed (a client that throws at start exits 1 like a client concluding a failed call).
const CONTROLS = ['throws-at-start', 'correct-client'];
const CONTROL_CASES = ['baseline', 'http-503-empty-body'];

let matrix: RunResult;
let reports: Map<string, string>;
const cellOf = (client: string, caseId: string): Cell => {
  const cell = matrix.cells.find((c) => c.target === fixture(client) && c.case === caseId);
  if (!cell) throw new Error(`no cell ${client} ${caseId}`);
  return cell;
};
const statuses = (client: string, caseIds = CASES): string[] => caseIds.map((id) => `${id}:${cellOf(client, id).status}/${cellOf(client, id).conclusion}`);

beforeAll(async () => {
  const table: LoadedCase[] = (await loadCases({ cwd: ROOT })).filter((item) => CASES.includes(item.case.id));
  const targets = CLIENTS.map((name) => resolveCommandTarget(fixture(name), { cwd: ROOT }));
  const isControl = (target: Target): boolean => CONTROLS.some((name) => fixture(name) === target.info.name);
  // Side by side, four cells in flight in all; the reports are drawn from the two as one run.
  // Every case here is answered at once: the long timeout keeps a loop stall of this shared thread
  // from making a cell 'not measured' (test/answered-at-once.ts).
  const options = { versions: ['2026-07-28' as const], timeoutMs: ANSWERED_AT_ONCE_TIMEOUT_MS };
  const [silent, controls] = await Promise.all([
    runMatrix({ ...options, cases: table, targets: targets.filter((target) => !isControl(target)), concurrency: 3 }),
    runMatrix({ ...options, cases: table.filter((item) => CONTROL_CASES.includes(item.case.id)), targets: targets.filter(isControl), concurrency: 1 }),
  ]);
  const order = (cell: Cell): number => targets.findIndex((target) => target.info.name === cell.target);
  const cells = [...silent.cells, ...controls.cells].sort((a, b) => order(a) - order(b));
  matrix = { ...silent, targets: targets.map((target) => target.info), cells, summary: summariseCells(cells) };
  reports = new Map(renderReports(matrix).map((report) => [report.name, report.content]));
}, 180_000);

describe('command target: a client without a verdict is judged on its exit status', () => {
  it('fails a client that throws at start, on a result case and on a failed case: it made no call and concluded nothing', () => {
    expect(statuses('throws-at-start', CONTROL_CASES)).toEqual(CONTROL_CASES.map((id) => `${id}:fail/none`));
    expect(cellOf('throws-at-start', 'http-503-empty-body').checks.find((c) => c.id === 'wire.tool-called')?.passed).toBe(false);
  });

  it('fails a silent client that exits 13 on calls that gave a result, and marks its other passes as exit-status only', () => {
    expect(statuses('exits-13-silent')).toEqual(['baseline:fail/exit_status', 'tool-is-error:fail/exit_status', 'http-503-empty-body:pass/exit_status', 'malformed-json:pass/exit_status']);
    const exit = cellOf('exits-13-silent', 'tool-is-error').checks.find((c) => c.id === 'client.exit');
    expect(exit).toMatchObject({ level: 'MUST', passed: false, actual: 'exit 13' });
    expect(exit?.message).toContain('failed a call that succeeded');
  });

  it('judges a client that exits 0 without a verdict on the wire alone, and a false success where the call failed', () => {
    expect(statuses('silent-exit-zero')).toEqual(['baseline:pass/wire_only', 'tool-is-error:pass/wire_only', 'http-503-empty-body:fail/wire_only', 'malformed-json:fail/wire_only']);
    expect(cellOf('silent-exit-zero', 'malformed-json').checks.find((c) => c.id === 'client.exit')?.message).toContain('false success');
  });

  it('passes a conformance-style client whose exit status tells the outcome, and the correct client on its verdicts', () => {
    expect(statuses('conformance-style')).toEqual(['baseline:pass/wire_only', 'tool-is-error:pass/wire_only', 'http-503-empty-body:pass/exit_status', 'malformed-json:pass/exit_status']);
    expect(statuses('correct-client', CONTROL_CASES)).toEqual(CONTROL_CASES.map((id) => `${id}:pass/verdict`));
  });

  it('counts passes without a verdict apart in the summary', () => {
    expect(matrix.summary).toMatchObject({ pass: 10, pass_exit_status: 4, pass_wire_only: 4 });
  });
});

describe('reports mark every cell judged without a verdict', () => {
  const silent = fixture('silent-exit-zero');

  it('results.json: the cell field and the summary counts', () => {
    const json = JSON.parse(reports.get('results.json')!) as RunResult;
    expect(json.cells.find((c) => c.target === silent && c.case === 'baseline')?.conclusion).toBe('wire_only');
    expect(json.summary).toMatchObject({ pass_exit_status: 4, pass_wire_only: 4 });
  });

  it('TAP: the test point says so, and summary comments warn about the wire-only target', () => {
    const tap = reports.get('results.tap')!;
    expect(tap).toMatch(/ok \d+ - baseline \[2026-07-28\] \(pass: wire only, no verdict\)/);
    expect(tap).toMatch(/ok \d+ - http-503-empty-body \[2026-07-28\] \(pass: exit status only\)/);
    expect(tap).toContain(`# warning: ${silent} reported no verdict and exited 0 in every cell`);
    expect(tap).toContain('# of the 10 passes, 4 on the exit status alone and 4 on the wire alone (exit 0, no verdict)');
    // A warning is for a target whose cells are all wire-only, not for one with some exit statuses.
    expect(tap).not.toContain(`# warning: ${fixture('conformance-style')}`);
  });

  it('JUnit: the test case output says so', () => {
    expect(reports.get('results.junit.xml')!).toContain('pass, judged without a verdict: wire only, no verdict');
  });

  it('Markdown: the warning line and the pass sources', () => {
    const md = reports.get('summary.md')!;
    expect(md).toContain('> **Warning:** command:node test/fixtures/clients/silent-exit-zero.mjs reported no verdict');
    expect(md).toContain('Passes without a verdict: of the 10 passes, 4 on the exit status alone');
  });

  it('HTML: such a cell is drawn apart from a verdict pass, and the header warns', () => {
    const html = reports.get('matrix.html')!;
    expect(html).toMatch(/<td class="s-pass t\d+ c-wire_only"[^>]*>PASS \(WIRE\)<\/td>/);
    expect(html).toMatch(/<td class="s-pass t\d+ c-exit_status"[^>]*>PASS \(EXIT\)<\/td>/);
    expect(html).toMatch(/<td class="s-pass t\d+"[^>]*>PASS<\/td>/);
    expect(html).toContain('reported no verdict and exited 0 in every cell');
  });
});
