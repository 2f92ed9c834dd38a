// Writes a run's report folder: every format, then receipts over the bytes on disk.
import type { RunResult } from '../runner/vocabulary/types.js';
import { loadPrecompiledTemplates } from './html/index.js';
import { renderReportChunks, type RenderContext, type ReportFormatName } from './index.js';
import { createReceiptsFinalizer, type ReceiptsFinalizerOptions } from './receipts/index.js';
import type { ReportSource } from './model/index.js';
import { writeReportFolder, type WriteReportFolderOptions } from './report-folder/index.js';

export interface WriteRunReportsOptions extends RenderContext, ReceiptsFinalizerOptions, Pick<WriteReportFolderOptions, 'cwd' | 'home' | 'shownAs' | 'onStep' | 'held'> {
  /** The formats written. @default every format */
  formats?: readonly ReportFormatName[];
}

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
  const { finalizeNames, finalize } = createReceiptsFinalizer(options);
  const folderOptions = {
    ...(cwd === undefined ? {} : { cwd }),
    ...(home === undefined ? {} : { home }),
    ...(shownAs === undefined ? {} : { shownAs }),
    ...(onStep ? { onStep } : {}),
    ...(held ? { held } : {}),
    finalizeNames,
  };
  await writeReportFolder(outDir, files, finalize, folderOptions);
  return [...files.map((file) => file.name), ...finalizeNames];
}
