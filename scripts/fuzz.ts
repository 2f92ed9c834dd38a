// The long fuzz run of the reference classifier: `npm run fuzz [-- --seed N --runs N]`.
// Same properties as test/hostile/classifier-fuzz.test.ts, with a random seed unless given.
import fc from 'fast-check';
import { parseArgs } from 'node:util';
import { createSchemaValidator, resolveSchemas } from '../runner/schema-check/index.js';
import { createClassifierProperties } from '../test/hostile/classifier-fuzz.js';

const { values } = parseArgs({ options: { seed: { type: 'string' }, runs: { type: 'string' } } });
const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
const runs = values.runs === undefined ? 100_000 : Number(values.runs);

// The schema property needs the pinned schemas (--schemas is not offered: MCP_SCHEMAS_DIR, the cache or a download).
const validator = await resolveSchemas({ env: process.env }).then(createSchemaValidator, (error: Error) => {
  process.stderr.write(`schemas unavailable, skipping the schema property: ${error.message}\n`);
  return undefined;
});

process.stdout.write(`fuzz: seed ${seed}, ${runs} runs per property\n`);
let failed = 0;
for (const { name, property } of createClassifierProperties(validator)) {
  const started = performance.now();
  const details = fc.check(property, { seed, numRuns: runs });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (details.failed) {
    failed++;
    process.stdout.write(`FAIL  ${name} after ${details.numRuns} runs (${seconds}s)\n  counterexample: ${fc.stringify(details.counterexample)}\n  ${String(details.errorInstance)}\n  replay: --seed ${seed} (path ${details.counterexamplePath})\n`);
  } else {
    process.stdout.write(`ok    ${name}: ${details.numRuns} runs, ${details.numSkips} skipped (${seconds}s)\n`);
  }
}
process.stdout.write(failed === 0 ? 'fuzz: every property held\n' : `fuzz: ${failed} properties failed\n`);
process.exitCode = failed === 0 ? 0 : 1;
