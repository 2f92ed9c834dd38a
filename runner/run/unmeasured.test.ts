// Nothing measured is not green: a target whose every cell was skipped fails the run, and every
// report says why.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderReports } from '../../reports/index.js';
import { runCli } from '../../test/run-cli.js';
import { loadCases } from '../cases/load-cases.js';
import { resolveCommandTarget } from '../targets/command-target.js';
import type { RunResult } from '../vocabulary/types.js';
import { findUnmeasuredTargets, runMatrix } from './run-matrix.js';

const ROOT = resolve(import.meta.dirname, '../..');
const ONLY_2025 = 'command:node test/fixtures/clients/correct-client.mjs #versions=2025-11-25';

describe('a target with no measured cell', () => {
  it('exits 1 with one line per such target, and 0 when only some cells are skipped', async () => {
    const none = await runCli(['run', '--target', ONLY_2025, '--target', 'reference', '--case', 'baseline', '--version', '2026-07-28', '--no-schemas', '--quiet'], { cwd: ROOT });
    expect(none.code).toBe(1);
    expect(none.stderr).toBe(`mcp-error-matrix: nothing measured for ${ONLY_2025}: all 1 of its cells were skipped: the client speaks only 2025-11-25 (target option versions=)\n`);
    expect(none.stdout).toContain(`# nothing measured for ${ONLY_2025.replace('#', '\\#')}`);
    const some = await runCli(['run', '--target', ONLY_2025, '--case', 'baseline', '--no-schemas', '--quiet', '--timeout', '4000'], { cwd: ROOT });
    expect(some.stdout).toMatch(/# SKIP/);
    expect(some.stderr).toBe('');
    expect(some.code).toBe(0);
  }, 60_000);

  it('is named in results.json, summary.md, TAP and the HTML header', async () => {
    const cases = (await loadCases({ cwd: ROOT })).filter((item) => item.case.id === 'baseline');
    const target = resolveCommandTarget(ONLY_2025, { cwd: ROOT });
    const result = await runMatrix({ cases, targets: [target], versions: ['2026-07-28'] });
    const reason = 'all 1 of its cells were skipped: the client speaks only 2025-11-25 (target option versions=)';
    expect(result.unmeasured).toEqual([{ target: ONLY_2025, reason }]);
    const reports = new Map(renderReports(result).map((report) => [report.name, report.content]));
    expect((JSON.parse(reports.get('results.json')!) as RunResult).unmeasured).toEqual([{ target: ONLY_2025, reason }]);
    expect(reports.get('summary.md')).toContain('> **Nothing measured** for command:node test/fixtures/clients/correct-client.mjs \\#versions=2025-11-25: all 1 of its cells were skipped');
    expect(reports.get('results.tap')).toContain('# nothing measured for command:node test/fixtures/clients/correct-client.mjs \\#versions=2025-11-25: all 1 of its cells');
    expect(reports.get('matrix.html')).toMatch(/<p class="banner" role="alert"><strong>Nothing measured<\/strong> for command:node test\/fixtures\/clients\/correct-client.mjs #versions&#x3D;2025-11-25: all 1 of its cells were skipped/);
  }, 30_000);

  it('names a target no cell was planned for', () => {
    expect(findUnmeasuredTargets([{ name: 'x', kind: 'command' }], [], ['2026-07-28'])).toEqual([{ target: 'x', reason: 'no cell was run for it (selected versions: 2026-07-28)' }]);
  });
});
