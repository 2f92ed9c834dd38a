// `run --shard i/n`: a deterministic slice of the plan, so a large matrix can be spread over a
// CI job matrix and merged afterwards. Whole cases are dealt round-robin in table order: every
// cell of a case (all targets, all versions) lands in the same shard, so each shard's results
// carry complete case summaries and merging never has to reconcile one case from two shards.
import { createHash } from 'node:crypto';
import type { LoadedCase } from '../cases/case-types.js';
import { UsageError } from '../util/errors.js';
import type { ProtocolVersion, Target } from '../vocabulary/types.js';

export interface ShardSpec {
  /** 1-based. */
  index: number;
  count: number;
}

/** Parses `--shard i/n` (1 ≤ i ≤ n). */
export function parseShard(value: string): ShardSpec {
  const match = /^(\d+)\/(\d+)$/.exec(value.trim());
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || count < 1 || index < 1 || index > count) {
    throw new UsageError(`--shard ${value}: expected i/n with 1 ≤ i ≤ n, e.g. --shard 1/4 … --shard 4/4`);
  }
  return { index, count };
}

/** The cases of shard i/n: every n-th case of the table, starting at the i-th. */
export function selectShardCases(cases: readonly LoadedCase[], shard: ShardSpec): LoadedCase[] {
  return cases.filter((_, position) => position % shard.count === shard.index - 1);
}

/**
 * A digest of the whole plan (every shard's cells with their case-file digests, target names
 * and versions). Shards of one run agree on it; shards of different tables or flags do not.
 */
export function computePlanDigest(cases: readonly LoadedCase[], targets: readonly Target[], versions?: readonly ProtocolVersion[]): { digest: string; cells: number } {
  const hash = createHash('sha256');
  let cells = 0;
  for (const target of targets) {
    for (const loaded of cases) {
      for (const version of loaded.case.versions) {
        if (versions && !versions.includes(version)) continue;
        cells++;
        hash.update(`${JSON.stringify([target.info.name, target.info.version ?? null, loaded.case.id, loaded.sha256, version])}\n`);
      }
    }
  }
  return { digest: hash.digest('hex'), cells };
}
