// Writes a run's report folder: every format, then receipts over the bytes on disk.
import type { RunResult } from '../runner/types.js';
import { renderReportChunks, type RenderContext } from './index.js';
import { createReceipts, RECEIPTS_FILE, SUMS_FILE, type ReceiptInput } from './receipts.js';
import { writeReportFolder } from './write.js';

export interface WriteRunReportsOptions extends RenderContext {
  /** Every input the run read (case files, schemas, baseline, runner code, target files). */
  inputs: ReceiptInput[];
  /** Inputs are recorded relative to this folder (the package root), so receipts verify elsewhere. */
  rootDir: string;
}

/** Renders and writes every report into `outDir` (replaced as a whole); returns the file names. */
export async function writeRunReports(outDir: string, result: RunResult, options: WriteRunReportsOptions): Promise<string[]> {
  const files = renderReportChunks(result, options.comparison ? { comparison: options.comparison } : {});
  await writeReportFolder(outDir, files, async (staging, written) => {
    // The outputs were hashed as they were written: no need to read them back.
    const receipts = await createReceipts({ inputs: options.inputs, outputs: files.map((file) => file.name), outputDigests: written, outDir: staging, rootDir: options.rootDir });
    return [
      { name: RECEIPTS_FILE, content: receipts.receiptsJson },
      { name: SUMS_FILE, content: receipts.sha256sums },
    ];
  });
  return [...files.map((file) => file.name), RECEIPTS_FILE, SUMS_FILE];
}
