// Writes a run's report folder: every format, then receipts over the bytes on disk.
import type { RunResult } from '../runner/vocabulary/types.js';
import { loadPrecompiledTemplates } from './html/index.js';
import { renderReportChunks, type RenderContext, type ReportFormatName } from './index.js';
import { createReceipts, RECEIPTS_FILE, SIGNATURE_FILE, SUMS_FILE, type ReceiptInput, type ReceiptRootOption, type ReceiptsSigner, type RunProvenance } from './receipts/index.js';
import type { ReportSource } from './model/index.js';
import { writeReportFolder, type WriteReportFolderOptions } from './report-folder/index.js';

export interface WriteRunReportsOptions extends RenderContext, Pick<WriteReportFolderOptions, 'cwd' | 'home' | 'shownAs' | 'onStep' | 'held'> {
  /** Every input the run read (case files, schemas, baseline, runner code, target files). */
  inputs: ReceiptInput[];
  /** The package root: inputs under it are recorded under the root "package", which verify locates itself. */
  rootDir: string;
  /** More named roots inputs are recorded relative to (the user's --cases, a classifier's folder…). */
  roots?: Record<string, ReceiptRootOption>;
  /** What ran (tool, commit, Node, target packages). */
  ran?: RunProvenance;
  /** Signs receipts.json (`run --sign KEY`); the signature goes into the folder as receipts.json.sig. */
  signer?: ReceiptsSigner;
  /** The formats written. @default every format */
  formats?: readonly ReportFormatName[];
}

const PACKAGE_ROOT_WHAT = 'the mcp-error-matrix package that ran; located by the verifying tool';

/**
 * Renders and writes every report into `outDir` (replaced as a whole, only if it is absent, empty
 * or a report folder of ours; see writeReportFolder); returns the file names. The cells come from
 * the result, or from a source read cell by cell (see report-source.ts).
 */
export async function writeRunReports(outDir: string, result: RunResult | ReportSource, options: WriteRunReportsOptions): Promise<string[]> {
  // The build's precompiled HTML templates, when present, spare compiling matrix.hbs (html-templates.ts).
  if (options.formats?.includes('html') ?? true) await loadPrecompiledTemplates();
  const files = renderReportChunks(result, options.comparison ? { comparison: options.comparison } : {}, options.formats);
  const { cwd, home, shownAs, onStep, held } = options;
  const finalizeNames = [RECEIPTS_FILE, ...(options.signer ? [SIGNATURE_FILE] : []), SUMS_FILE];
  const folderOptions = {
    ...(cwd === undefined ? {} : { cwd }),
    ...(home === undefined ? {} : { home }),
    ...(shownAs === undefined ? {} : { shownAs }),
    ...(onStep ? { onStep } : {}),
    ...(held ? { held } : {}),
    finalizeNames,
  };
  await writeReportFolder(outDir, files, async (staging, written) => {
    // The outputs were hashed as they were written: no need to read them back. Every file of
    // the folder is listed, the report marker included.
    const receipts = await createReceipts({
      inputs: options.inputs,
      outputs: [...written.keys()],
      outputDigests: written,
      outDir: staging,
      roots: { package: { dir: options.rootDir, what: PACKAGE_ROOT_WHAT, recordLocation: false }, ...options.roots },
      ...(options.ran ? { ran: options.ran } : {}),
      ...(options.signer ? { signer: options.signer } : {}),
    });
    return [
      { name: RECEIPTS_FILE, content: receipts.receiptsJson },
      ...(receipts.signature === undefined ? [] : [{ name: SIGNATURE_FILE, content: receipts.signature }]),
      { name: SUMS_FILE, content: receipts.sha256sums },
    ];
  }, folderOptions);
  return [...files.map((file) => file.name), ...finalizeNames];
}
