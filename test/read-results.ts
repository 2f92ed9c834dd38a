// The whole result a report folder holds, for tests that read a cell's evidence (checks,
// recording, target output, repro): results.json is an index since results@2 (issue 30), and
// results.full.json.gz beside it is the whole results@1 model.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { unpackEvidence, type DetailsData } from '../reports/html/index.js';
import type { RunResult } from '../runner/vocabulary/types.js';

/** results.full.json.gz of a report folder, decompressed and parsed. */
export function readFullResults(dir: string): RunResult {
  return JSON.parse(gunzipSync(readFileSync(join(dir, 'results.full.json.gz'))).toString('utf8')) as RunResult;
}

/**
 * A matrix.html's text with its evidence blocks unpacked and appended (checks, schema results,
 * transcripts and target output are gzip inside the page since issue 30): what a leak scan reads.
 */
export function expandHtmlEvidence(html: string): string {
  const block = /<script type="application\/json" id="cell-data">([\s\S]*?)<\/script>/.exec(html)?.[1];
  if (block === undefined) return html;
  const data = JSON.parse(block) as DetailsData;
  return `${html}\n${JSON.stringify(unpackEvidence(data.evidence))}`;
}
