// Which target of the old run a target of the new run is compared with. By default a cell pairs
// with the cell of the same case, target name and protocol version. `--pair OLD=NEW` pairs two
// targets of different names (ts-client@2.0.0 with ts-client@2.4.0); without --pair, a family
// (ts-sdk, ts-client) with exactly one target in each run, under different names, pairs itself.
// Pairing is never a guess: a family that could pair more than one way is an error naming the choices.
import type { TargetPair } from '../../reports/model/index.js';
import { RunnerError, UsageError } from '../util/errors.js';
import type { Cell, TargetInfo } from '../vocabulary/types.js';
import { compareVersions } from './order-versions.js';

/** What pairing reads of a run: its target names and its cells' keys. */
interface PairableRun {
  targets: readonly Pick<TargetInfo, 'name'>[];
  cells: readonly Pick<Cell, 'target'>[];
}

/** Two runs share no cell: comparing them says nothing. */
export class UnpairedComparisonError extends RunnerError {
  constructor(message: string) {
    super('MEM_COMPARE_UNPAIRED', message);
  }
}

/** A family whose targets could pair more than one way: the user names the pair with --pair. */
export class AmbiguousPairingError extends RunnerError {
  constructor(message: string) {
    super('MEM_COMPARE_AMBIGUOUS', message);
  }
}

/** How messages name the two runs and the command. */
export interface PairingLabels {
  old: string;
  new: string;
  command: string;
}

const DEFAULT_LABELS: PairingLabels = { old: 'the old run', new: 'the new run', command: 'compare' };
/** Pairs a message offers before it says how many more there are. */
const CHOICES_SHOWN = 6;

/** The target names a result holds (its target list and its cells). */
export function listResultTargets(result: PairableRun): string[] {
  return [...new Set([...result.targets.map((t) => t.name), ...result.cells.map((c) => c.target)])];
}

/** `ts-sdk@1.25.0` → `ts-sdk`; undefined for a target that is not one version of a package. */
export function getTargetFamily(name: string): string | undefined {
  return /^([a-z][a-z0-9-]*)@\d/.exec(name)?.[1];
}

/** Parses `--pair OLD=NEW` values; each side is a target name as the results write it. */
export function parsePairs(values: readonly string[] | undefined, command: string): TargetPair[] {
  return (values ?? []).map((value) => {
    const at = value.indexOf('=');
    const before = value.slice(0, at).trim();
    const after = value.slice(at + 1).trim();
    if (at < 0 || before === '' || after === '') {
      throw new UsageError(`${command} --pair ${value}: expected OLD=NEW, two target names, e.g. --pair ts-client@2.0.0=ts-client@2.4.0`);
    }
    return { before, after };
  });
}

/** Checks each pair names a target of its run, and no target is on one side of two pairs; the error lists the targets each run has. */
export function checkPairs(pairs: readonly TargetPair[], oldTargets: readonly string[], newTargets: readonly string[], labels: PairingLabels): void {
  const seen = new Set<string>();
  const pairedWith = new Map<string, string>();
  for (const pair of pairs) {
    const problem = !oldTargets.includes(pair.before)
      ? `${JSON.stringify(pair.before)} is not a target of ${labels.old} (it has: ${oldTargets.join(', ') || 'none'})`
      : !newTargets.includes(pair.after)
        ? `${JSON.stringify(pair.after)} is not a target of ${labels.new} (it has: ${newTargets.join(', ') || 'none'})`
        : seen.has(pair.before)
          ? `${pair.before} is paired twice; give each old target one --pair`
          : pairedWith.has(pair.after)
            ? `${pair.after} is already paired with ${pairedWith.get(pair.after)}; give each new target one --pair`
            : undefined;
    if (problem) throw new UsageError(`${labels.command} --pair ${pair.before}=${pair.after}: ${problem}`);
    seen.add(pair.before);
    pairedWith.set(pair.after, pair.before);
  }
}

/**
 * The pairs to apply: the explicit ones, else one per family with a single target in each run
 * under different names. A family with versions only in the old run and versions only in the new
 * one, and more than one of either, could pair several ways: an AmbiguousPairingError naming them.
 */
export function choosePairs(before: PairableRun, after: PairableRun, explicit: readonly TargetPair[] = [], labels: PairingLabels = DEFAULT_LABELS): TargetPair[] {
  if (explicit.length > 0) return [...explicit];
  const oldTargets = listResultTargets(before);
  const newTargets = listResultTargets(after);
  const pairs: TargetPair[] = [];
  const families = new Set(oldTargets.map(getTargetFamily).filter((f): f is string => f !== undefined));
  for (const family of families) {
    const olds = sortTargetsByVersion(oldTargets.filter((name) => getTargetFamily(name) === family));
    const news = sortTargetsByVersion(newTargets.filter((name) => getTargetFamily(name) === family));
    const oldOnly = olds.filter((name) => !news.includes(name));
    const newOnly = news.filter((name) => !olds.includes(name));
    // Every version is in both runs, or none is only in one of them: cells pair by name.
    if (oldOnly.length === 0 || newOnly.length === 0) continue;
    if (olds.length === 1 && news.length === 1) {
      pairs.push({ before: olds[0]!, after: news[0]! });
      continue;
    }
    throw describeAmbiguous(family, { olds, news, newOnly }, labels);
  }
  return pairs;
}

/**
 * The targets a set of pairs leaves out of the comparison: of the old run, each pair's NEW that is
 * no pair's OLD (the old OLD's cells stand for it); of the new run, each pair's OLD that is no
 * pair's NEW (its old cells now compare with NEW). Inside one run this keeps a version from being
 * compared with itself or counted as both added and removed.
 */
export function listSetAsideTargets(pairs: readonly TargetPair[]): { before: Set<string>; after: Set<string> } {
  const olds = new Set(pairs.map((pair) => pair.before));
  const news = new Set(pairs.map((pair) => pair.after));
  return { before: new Set([...news].filter((name) => !olds.has(name))), after: new Set([...olds].filter((name) => !news.has(name))) };
}

function describeAmbiguous(family: string, sides: { olds: string[]; news: string[]; newOnly: string[] }, labels: PairingLabels): AmbiguousPairingError {
  const choices = sides.olds.flatMap((before) => sides.newOnly.map((after) => `--pair ${before}=${after}`));
  const shown = choices.slice(0, CHOICES_SHOWN).join(' or ') + (choices.length > CHOICES_SHOWN ? ` (${choices.length - CHOICES_SHOWN} more combinations)` : '');
  return new AmbiguousPairingError(
    `${labels.command}: ${family} could pair more than one way (${labels.old} has ${sides.olds.join(', ')}; ${labels.new} has ${sides.news.join(', ')}), and a comparison never guesses; ` +
      `name the pair to compare: ${shown}. --pair is repeatable, one per old target; with any --pair, no family pairs by itself.`,
  );
}

/** Target names of one family, oldest version first. */
function sortTargetsByVersion(names: readonly string[]): string[] {
  const versionOf = (name: string) => name.slice(name.indexOf('@') + 1);
  return [...names].sort((a, b) => compareVersions(versionOf(a), versionOf(b)));
}

/** The error for two runs with no cell in common, naming the targets of each. */
export function describeUnpaired(oldTargets: readonly string[], newTargets: readonly string[], labels: PairingLabels): UnpairedComparisonError {
  return new UnpairedComparisonError(
    `${labels.command}: no cell of ${labels.new} pairs with a cell of ${labels.old} (cells pair by case, target and protocol version), so there is nothing to compare. ` +
      `Targets in ${labels.old}: ${oldTargets.join(', ') || 'none'}; in ${labels.new}: ${newTargets.join(', ') || 'none'}. ` +
      `To compare targets of different names, pair them: --pair OLD=NEW, e.g. --pair ${oldTargets[0] ?? 'ts-client@2.0.0'}=${newTargets[0] ?? 'ts-client@2.4.0'}; else check that both runs share cases and protocol versions.`,
  );
}

/**
 * Whether a planned run can pair any cell with `previous` (checked before `run --compare` runs,
 * so a comparison that would say nothing fails in a second, not after the run).
 */
export function canPairPlannedRun(previous: { cells: readonly Pick<Cell, 'case' | 'target' | 'protocolVersion'>[] }, plan: { targets: readonly string[]; cases: readonly string[]; versions?: readonly string[] }, pairs: readonly TargetPair[]): boolean {
  const renamed = new Map(pairs.map((pair) => [pair.before, pair.after]));
  const aside = listSetAsideTargets(pairs);
  const targets = new Set(plan.targets.filter((name) => !aside.after.has(name)));
  const cases = new Set(plan.cases);
  return previous.cells.some(
    (cell) =>
      !aside.before.has(cell.target) && cases.has(cell.case) && targets.has(renamed.get(cell.target) ?? cell.target) && (plan.versions === undefined || plan.versions.includes(cell.protocolVersion)),
  );
}
