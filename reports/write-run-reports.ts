// Writes a run's report folder: every format, then receipts over the bytes on disk.
import type { RunResult } from '../runner/types.js';
import { renderReportChunks, type RenderContext } from './index.js';
import { createReceipts, RECEIPTS_FILE, SUMS_FILE, type ReceiptInput } from './receipts.js';
import { writeReportFolder, type WriteReportFolderOptions } from './write.js';

export interface WriteRunReportsOptions extends RenderContext, Pick<WriteReportFolderOptions, 'cwd' | 'home' | 'shownAs' | 'onStep'> {
  /** Every input the run read (case files, schemas, baseline, runner code, target files). */
  inputs: ReceiptInput[];
  /** Inputs are recorded relative to this folder (the package root), so receipts verify elsewhere. */
  rootDir: string;
}

/**
 * Renders and writes every report into `outDir` (replaced as a whole, only if it is absent, empty
 * or a report folder of ours; see writeReportFolder); returns the file names.
 */
export async function writeRunReports(outDir: string, result: RunResult, options: WriteRunReportsOptions): Promise<string[]> {
  const files = renderReportChunks(result, options.comparison ? { comparison: options.comparison } : {});
  const { cwd, home, shownAs, onStep } = options;
  const folderOptions = { ...(cwd === undefined ? {} : { cwd }), ...(home === undefined ? {} : { home }), ...(shownAs === undefined ? {} : { shownAs }), ...(onStep ? { onStep } : {}) };
  await writeReportFolder(outDir, files, async (staging, written) => {
    // The outputs were hashed as they were written: no need to read them back. Every file of
    // the folder is listed, the report marker included.
    const receipts = await createReceipts({ inputs: options.inputs, outputs: [...written.keys()], outputDigests: written, outDir: staging, rootDir: options.rootDir });
    return [
      { name: RECEIPTS_FILE, content: receipts.receiptsJson },
      { name: SUMS_FILE, content: receipts.sha256sums },
    ];
  }, folderOptions);
  return [...files.map((file) => file.name), RECEIPTS_FILE, SUMS_FILE];
}
