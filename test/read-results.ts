// The whole result a report folder holds, for tests that read a cell's evidence (checks,
// recording, target output, repro): results.json is an index since results@2 (issue 30), and
// results.full.json.gz beside it is the whole results@1 model.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { RunResult } from '../runner/types.js';

/** results.full.json.gz of a report folder, decompressed and parsed. */
export function readFullResults(dir: string): RunResult {
  return JSON.parse(gunzipSync(readFileSync(join(dir, 'results.full.json.gz'))).toString('utf8')) as RunResult;
}
