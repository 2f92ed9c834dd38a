// What makes two atlases' cells comparable: the same tool version is not enough inside a checkout,
// where the adapters change between commits under one version. The measuring fingerprint is a
// SHA-256 over the runner code that decides a cell (targets and their adapters, the mock server,
// judging, schema checks, package.json and its lock); the commands and the atlas's own
// orchestration are left out, as they decide nothing about a cell. The rendering fingerprint covers
// the report code that draws a version's matrix.html: when only it changed, the stored cells are
// kept and the pages drawn again. An installed package has one of each per version.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { glob } from 'tinyglobby';
import { hashFile, mapWithLimit } from '../../reports/receipts/index.js';
import { getPackageRoot } from '../util/package-paths.js';
import { RUNNER_FILES } from '../run/collect-inputs.js';

const IGNORED = ['**/*.test.ts', '**/*.test.js', '**/__golden__/**'];
// Orchestration only: which cells run and how the atlas is drawn, never what a cell concludes.
const NOT_MEASURING = ['runner/atlas/**', 'runner/commands/**', 'dist/runner/atlas/**', 'dist/runner/commands/**', 'runner/cli*.ts', 'dist/runner/cli*.js'];
const REPORT_FILES = ['reports/**/*.ts', 'reports/html/templates/**', 'dist/reports/**/*.js'];

export interface AtlasFingerprints {
  /** Runner code that measures. */
  measuring: string;
  /** Report code that draws a version's page. */
  rendering: string;
}

/** Both fingerprints of the code this process runs from (`root`: the package root). */
export async function computeAtlasFingerprints(root = getPackageRoot()): Promise<AtlasFingerprints> {
  const reportFiles = new Set(await glob(REPORT_FILES, { cwd: root, ignore: IGNORED }));
  const measuringFiles = (await glob(RUNNER_FILES, { cwd: root, ignore: [...IGNORED, ...NOT_MEASURING] })).filter((file) => !reportFiles.has(file));
  return { measuring: await digestFiles(root, measuringFiles), rendering: await digestFiles(root, [...reportFiles]) };
}

/** SHA-256 over each file's path (relative, `/`) and SHA-256, in path order. */
export async function digestFiles(root: string, files: readonly string[]): Promise<string> {
  const sorted = [...files].sort();
  const digests = await mapWithLimit(sorted, 8, async (file) => (await hashFile(join(root, file))).sha256);
  const hash = createHash('sha256');
  sorted.forEach((file, index) => hash.update(`${file.split('\\').join('/')} ${digests[index]}\n`));
  return hash.digest('hex');
}
