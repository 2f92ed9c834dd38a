// Before `merge` reads a shard, the shard's report folder must verify against its own receipts
// (issue 28 item 3: a shard's results.json edited fail → pass was merged, and the merged receipts,
// which record only the edited file's hash, verified). Every file of the folder is checked against
// SHA256SUMS and the receipts' outputs, nothing unlisted may be there, and with a key the receipts
// must carry its signature. The shard's inputs are not checked here: they were on the machine that
// ran it (`verify --root … shard-dir` checks them where they are).
import type { KeyObject } from 'node:crypto';
import { existsSync } from 'node:fs';
import { RECEIPTS_FILE } from '../../reports/receipts/index.js';
import { verifyReport } from '../../reports/receipts/index.js';
import { ShardMergeError } from './merge-results.js';

export interface VerifiedShard {
  /** Whether its receipts are signed (checked against the key when one was given). */
  signed: boolean;
}

/** Verifies the shard report folder `dir` (shown as `shownAs`); throws a ShardMergeError naming the files that do not verify. */
export async function verifyShardFolder(dir: string, shownAs: string, options: { publicKey?: KeyObject } = {}): Promise<VerifiedShard> {
  if (!existsSync(`${dir}/${RECEIPTS_FILE}`)) {
    throw new ShardMergeError(
      `${shownAs} has no ${RECEIPTS_FILE}, so it cannot be verified; give each shard's report folder as \`run --shard i/n --out DIR\` wrote it, with its receipts`,
    );
  }
  const result = await verifyReport(dir, { outputsOnly: true, ...(options.publicKey ? { publicKey: options.publicKey } : {}) });
  if (result.mismatches.length > 0) {
    const listed = result.mismatches.slice(0, 5).map((m) => `${m.path}: expected ${m.expected}, found ${m.actual}`);
    throw new ShardMergeError(
      `the shard ${shownAs} does not verify against its own receipts, so it is not merged (edited, or not the report its run wrote):\n  - ${listed.join('\n  - ')}` +
        `${result.mismatches.length > 5 ? `\n  - and ${result.mismatches.length - 5} more` : ''}\n(\`mcp-error-matrix verify ${shownAs}\` lists them all)`,
    );
  }
  return { signed: result.signature !== undefined };
}
