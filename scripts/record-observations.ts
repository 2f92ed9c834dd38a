// Records what the built-in client libraries did in a run (its results.json: every cell's
// observation and the wire context of its calls) as the fixture the offline tests map again
// (test/default-run-observations.test.ts): no adapter gap in the default run, and no baseline
// reason that says "concludes nothing" of a library that threw or returned. Re-record after a
// bundled library or the case table changes:
//
//   npm run build && node bin/mcp-error-matrix.js run --no-baseline --out report
//   npm run record:observations -- report/results.json [rerun/results.json …]
//
// Later files (a re-run of cells a loaded machine left unmeasured) replace earlier ones cell by cell.
import { writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { readResultsFile } from '../runner/compare/results-file.js';
import { buildObservationFixture, FIXTURE_PATH } from '../test/observation-fixture.js';

const inputs = process.argv.slice(2);
if (inputs.length === 0) {
  console.error('usage: npm run record:observations -- <results.json of a default run> [results.json of re-runs …]');
  process.exit(2);
}
// results.json is an index (results@2): the observations are in the whole model beside it, which
// the project's own reader finds, checks against the index and reads (as compare and merge do).
const results = await Promise.all(inputs.map((input) => readResultsFile(input)));
const fixture = buildObservationFixture(results);
const json = JSON.stringify(fixture);
writeFileSync(FIXTURE_PATH, gzipSync(json, { level: 9 }));
console.log(`wrote ${FIXTURE_PATH}: ${fixture.cells.length} cells, ${fixture.records.length} distinct records (${json.length} bytes of JSON)`);
