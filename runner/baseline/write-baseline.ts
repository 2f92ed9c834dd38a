// `run --write-baseline FILE`: the current failures as a baseline, so regenerating the bundled
// one is a single command. Hand-written reasons of entries that still hold are kept; every other
// reason says the observed behaviour in a sentence generated from the judged checks.
import type { Case } from '../cases/case-types.js';
import { loadYaml } from '../util/lazy-yaml.js';
import { writeFileAtomic } from '../../reports/report-folder/index.js';
import type { Cell, ProtocolVersion } from '../vocabulary/types.js';
import { getBaselineTarget } from './baseline-target.js';
import { describeObservedFailure } from './describe-observed.js';
import { BASELINE_FORMAT, type Baseline, type BaselineEntry } from './load-baseline.js';

/** Every generated reason starts so; a reason that does not (or the older generated form) was written by a person. */
export const OBSERVED_PREFIX = 'observed: ';
const LEGACY_GENERATED_PREFIX = 'known failure recorded ';

type NewEntry = Omit<BaselineEntry, 'index' | 'line'>;

const FAILING = new Set(['fail', 'non_strict', 'xfail']);

/**
 * One entry per failing (target, case): without `version` when it fails under every version it
 * was judged in, else one entry per failing version. Its reason is the previous entry's when a
 * person wrote it, else `observed: <sentence>` (describe-observed.ts; `cases` gives the sentence
 * the scripted answer, e.g. a wrong id). Entries of the previous baseline for (target, case)
 * pairs this run did not judge are kept as they were.
 */
export function buildBaselineEntries(cells: Iterable<Cell>, previous: Baseline | undefined, cases: ReadonlyMap<string, Case> = new Map()): NewEntry[] {
  // One pass, keeping the failing cells only (a large run reads its cells from disk).
  const judged = new Map<string, { count: number; failing: Cell[] }>();
  const targetOrder: string[] = [];
  const seenTargets = new Set<string>();
  for (const cell of cells) {
    const baselineTarget = getBaselineTarget(cell.target);
    if (!seenTargets.has(baselineTarget)) {
      seenTargets.add(baselineTarget);
      targetOrder.push(baselineTarget);
    }
    if (cell.status === 'skip' || cell.status === 'error') continue;
    const key = JSON.stringify([baselineTarget, cell.case]);
    const group = judged.get(key) ?? { count: 0, failing: [] };
    group.count++;
    if (FAILING.has(cell.status)) group.failing.push(cell);
    judged.set(key, group);
  }
  const entries: NewEntry[] = [];
  for (const group of judged.values()) {
    const failing = group.failing;
    if (failing.length === 0) continue;
    const target = getBaselineTarget(failing[0]!.target);
    const caseId = failing[0]!.case;
    const versions: (ProtocolVersion | undefined)[] = failing.length === group.count ? [undefined] : failing.map((cell) => cell.protocolVersion);
    for (const version of versions) {
      const cell = version === undefined ? failing[0]! : failing.find((c) => c.protocolVersion === version)!;
      const kept = previous?.entries.find((e) => getBaselineTarget(e.target) === target && e.case === caseId && e.check === undefined && (e.version === undefined || e.version === version));
      const handWritten = kept !== undefined && !kept.reason.startsWith(OBSERVED_PREFIX) && !kept.reason.startsWith(LEGACY_GENERATED_PREFIX);
      entries.push({
        target,
        case: caseId,
        ...(version === undefined ? {} : { version }),
        reason: handWritten ? kept.reason : `${OBSERVED_PREFIX}${describeObservedFailure(cell, cases.get(caseId))}`,
      });
    }
  }
  for (const entry of previous?.entries ?? []) {
    if (!judged.has(JSON.stringify([getBaselineTarget(entry.target), entry.case]))) {
      const { index: _index, line: _line, ...rest } = entry;
      entries.push(rest);
    }
  }
  const rank = (target: string) => (targetOrder.includes(target) ? targetOrder.indexOf(target) : targetOrder.length);
  return entries.sort((a, b) => rank(a.target) - rank(b.target) || compare(a.target, b.target) || compare(a.case, b.case) || compare(a.version ?? '', b.version ?? '') || compare(a.check ?? '', b.check ?? ''));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The baseline file text: a header saying how to regenerate it, then the entries. */
export function renderBaseline(entries: readonly NewEntry[]): string {
  const header = [
    '# mcp-error-matrix baseline: expected failures.',
    '# A listed failing cell is reported as xfail and does not fail the run; a listed cell that passes',
    '# is xpass (a stale entry) and fails the run. Regenerate with the same --target/--case flags:',
    '#   mcp-error-matrix run --write-baseline <this file>',
    '',
  ].join('\n');
  const body = loadYaml().stringify({ format: BASELINE_FORMAT, entries: entries.map((e) => ({ target: e.target, case: e.case, ...(e.check ? { check: e.check } : {}), ...(e.version ? { version: e.version } : {}), reason: e.reason })) }, { lineWidth: 0 });
  return `${header}${body}`;
}

/** Writes the baseline atomically; returns the text written. */
export async function writeBaselineFile(path: string, entries: readonly NewEntry[]): Promise<string> {
  const text = renderBaseline(entries);
  await writeFileAtomic(path, text);
  return text;
}
