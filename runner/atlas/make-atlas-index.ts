// atlas.json from what the schedule kept: the settings that decide reuse, the case table as the
// pages show it, and per stack its coverage (edge, versions past it, versions a stop left out) and
// its versions' entries, newest first.
import { platform, release } from 'node:os';
import type { LoadedCase } from '../cases/case-types.js';
import { SDK_KINDS } from '../targets/sdk/resolve-sdk-package.js';
import type { ProtocolVersion, SchemaInfo } from '../vocabulary/types.js';
import { PROTOCOL_VERSIONS } from '../vocabulary/types.js';
import { ATLAS_FORMAT, type AtlasCaseInfo, type AtlasIndex, type AtlasSettings, type AtlasStack } from './atlas-types.js';
import type { SettledVersion } from './measure-atlas-version.js';
import type { StackPlan } from './plan-atlas.js';
import type { ScheduledStack } from './run-atlas-schedule.js';

export interface MakeAtlasIndexOptions {
  settings: AtlasSettings;
  renderFingerprint: string;
  startedAt: string;
  finishedAt: string;
  cases: readonly LoadedCase[];
  versions?: readonly ProtocolVersion[];
  plans: readonly StackPlan[];
  scheduled: readonly ScheduledStack<SettledVersion>[];
  schemaInfo: SchemaInfo[] | null;
}

/** A case's one-sentence meaning: its description's first sentence. */
export function getCaseMeaning(description: string): string {
  const first = /^[\s\S]*?[.!?](?=\s|$)/.exec(description.trim())?.[0] ?? description.trim();
  return first.length > 400 ? `${first.slice(0, 399)}…` : first;
}

export function toCaseInfo(item: LoadedCase): AtlasCaseInfo {
  return { id: item.case.id, title: item.case.title, layer: item.case.layer, meaning: getCaseMeaning(item.case.description), sha256: item.sha256, versions: item.case.versions };
}

/** The atlas index. */
export function makeAtlasIndex(options: MakeAtlasIndexOptions): AtlasIndex {
  const stacks: AtlasStack[] = options.scheduled.map((scheduled, index) => {
    const plan = options.plans[index]!;
    const kind = SDK_KINDS[scheduled.kind as keyof typeof SDK_KINDS] as { packageName: string; stack: string } | undefined;
    return {
      kind: scheduled.kind,
      packageName: kind?.packageName ?? scheduled.kind,
      implementation: kind?.stack ?? 'unknown',
      coverage: {
        releases: plan.releases,
        ...(plan.range === undefined ? {} : { range: plan.range }),
        ...(scheduled.edge === undefined ? {} : { edge: scheduled.edge }),
        beyondEdge: scheduled.beyondEdge,
        pending: scheduled.pending,
      },
      versions: scheduled.outcomes.map((outcome) => outcome.outcome.entry),
    };
  });
  const selected = options.versions;
  return {
    format: ATLAS_FORMAT,
    settings: options.settings,
    renderFingerprint: options.renderFingerprint,
    startedAt: options.startedAt,
    finishedAt: options.finishedAt,
    complete: stacks.every((stack) => stack.coverage.pending.length === 0),
    protocolVersions: PROTOCOL_VERSIONS.filter((version) => !selected || selected.includes(version)),
    cases: options.cases.map(toCaseInfo),
    stacks,
    node: process.version,
    platform: `${platform()} ${release()}`,
    schemaInfo: options.schemaInfo,
  };
}
