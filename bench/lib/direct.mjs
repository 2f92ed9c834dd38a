// @ts-check
// Direct mode: cells/s through the reference classifier without sockets (vs the bare classifier
// on the same inputs), and the built CLI's wall time over the whole table (vs an eleven-test
// `node --test` file).
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { classifyReference } from '../../dist/runner/classify/reference.js';
import { runMatrix } from '../../dist/runner/run/run-matrix.js';
import { createClassifierTarget } from '../../dist/runner/targets/classifier-target.js';
import { alternate, makeTempDir, median, ratio, ROOT, runNode, timeIt } from './measure.mjs';
import { writeNodeTestFile } from './node-test-file.mjs';

const CLI = join(ROOT, 'bin', 'mcp-error-matrix.js');

/** In-process direct mode vs calling the classifier on the same inputs in a bare loop. */
export async function measureDirectThroughput(cases) {
  // Capture every input the harness hands the classifier, to replay them without the harness.
  const inputs = [];
  const capturing = createClassifierTarget({ name: 'reference', kind: 'classifier' }, (input) => {
    inputs.push(input);
    return classifyReference(input);
  });
  const warm = await runMatrix({ cases, targets: [capturing], mode: 'direct' });
  const cells = warm.cells.length;
  const perCell = inputs.length / cells;
  const target = createClassifierTarget({ name: 'reference', kind: 'classifier' }, classifyReference);
  const laps = 5;
  const samples = await alternate(
    async () => {
      const { ms } = await timeIt(async () => {
        for (let i = 0; i < laps; i++) await runMatrix({ cases, targets: [target], mode: 'direct' });
      });
      return (cells * laps * 1000) / ms;
    },
    async () => {
      const { ms } = await timeIt(async () => {
        for (let i = 0; i < laps; i++) for (const input of inputs) await classifyReference(input);
      });
      // Cells' worth of classifier calls per second: the same exchanges, no harness.
      return (cells * laps * 1000) / ms;
    },
  );
  const measured = median(samples.measured);
  const reference = median(samples.reference);
  return {
    id: 'direct.cells_per_s',
    title: 'direct mode, in-process (cells/s)',
    measured,
    reference,
    referenceLabel: 'bare classifier loop, same inputs',
    ratio: ratio(measured, reference),
    target: null,
    unit: 'cells/s',
    notes: `${cells} cells, ${inputs.length} classifier calls (${perCell.toFixed(2)} per cell), ${laps} laps per sample`,
    samples,
  };
}

/** Built CLI wall time over the whole table (direct mode) vs `node --test` on eleven tests. */
export async function measureDirectCli(cases, env) {
  const { dir, cleanup } = makeTempDir('node-test');
  try {
    const testFile = writeNodeTestFile(dir, cases);
    const cliArgs = [CLI, 'run', '--target', 'reference', '--mode', 'direct', '--quiet'];
    // The floor under goal 1: the same run over a table of one case (its four cells), schemas on and
    // every report written. Whatever the table costs comes on top of this start-up, loading and writing.
    const oneCase = copyOneCase(cases, join(dir, 'one-case'));
    const samples = { measured: [], measuredSchemas: [], measuredOut: [], measuredFloor: [], reference: [] };
    // The validator code cache (schema-check/validator-code.ts) is warmed once, as any second run finds it.
    await runNode(cliArgs, { env });
    for (let i = 0; i < Number(process.env.BENCH_REPEAT ?? 5); i++) {
      samples.measured.push((await runNode([...cliArgs, '--no-schemas'], { env })).ms);
      samples.measuredSchemas.push((await runNode(cliArgs, { env })).ms);
      // Issue 16 goal 1: schemas on and every report written (a fresh folder each time).
      samples.measuredOut.push((await runNode([...cliArgs, '--out', join(dir, `out-${i}`)], { env })).ms);
      samples.measuredFloor.push((await runNode([...cliArgs, '--cases', oneCase, '--out', join(dir, `floor-${i}`)], { env })).ms);
      samples.reference.push((await runNode(['--test', testFile], { env })).ms);
    }
    const reference = median(samples.reference);
    const noSchemas = median(samples.measured);
    const withSchemas = median(samples.measuredSchemas);
    const withOut = median(samples.measuredOut);
    const floor = median(samples.measuredFloor);
    const common = { reference, referenceLabel: '`node --test`, 11 tests', target: 1.0, targetKind: 'max', unit: 'ms' };
    return [
      { id: 'direct.cli_no_schemas', title: `CLI direct, --no-schemas, ${cases.length} cases (wall)`, measured: noSchemas, ratio: ratio(noSchemas, reference), ...common, samples: { measured: samples.measured, reference: samples.reference } },
      { id: 'direct.cli_schemas', title: `CLI direct, with schemas, ${cases.length} cases (wall)`, measured: withSchemas, ratio: ratio(withSchemas, reference), ...common, samples: { measured: samples.measuredSchemas, reference: samples.reference } },
      { id: 'direct.cli_schemas_out', title: `CLI direct, with schemas and --out (every report), ${cases.length} cases (wall)`, measured: withOut, ratio: ratio(withOut, reference), ...common, samples: { measured: samples.measuredOut, reference: samples.reference } },
      {
        id: 'direct.cli_floor_one_case_out',
        title: 'the floor under it: the same CLI run over one case (wall)',
        measured: floor,
        ratio: ratio(floor, reference),
        ...common,
        // Informational: no goal is set on it; it bounds the whole-table row from below.
        target: null,
        notes: `--cases with only ${FLOOR_CASE} (its cells in every version), schemas on and every report written: Node's start, loading the CLI, the schema checks and the report set, with almost no cells`,
        samples: { measured: samples.measuredFloor, reference: samples.reference },
      },
    ];
  } finally {
    cleanup();
  }
}

const FLOOR_CASE = 'baseline';

/** A cases folder holding only the bundled FLOOR_CASE file, at its relative path. */
function copyOneCase(cases, root) {
  const loaded = cases.find((item) => item.case.id === FLOOR_CASE);
  if (!loaded) throw new Error(`bench: the case table has no "${FLOOR_CASE}" case for the floor figure`);
  const target = join(root, loaded.relativeFile);
  mkdirSync(dirname(target), { recursive: true });
  copyFileSync(loaded.file, target);
  return root;
}
