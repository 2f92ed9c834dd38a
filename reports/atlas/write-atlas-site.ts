// Writes an atlas site as one report folder (write.ts): staged beside, swapped in whole, refused if
// the folder holds anything the tool did not write; then receipts over every file of the site and
// the inputs that made it (case files, schemas, the runner's code, the client packages still
// installed), so `verify <site>` checks it after it moved, like any report folder.
import type { AtlasIndex } from '../../runner/atlas/atlas-types.js';
import { createReceiptsFinalizer, type ReceiptsFinalizerOptions } from '../receipts/index.js';
import { writeReportFolder, type WriteReportFolderOptions } from '../report-folder/index.js';
import { listAtlasFiles, type AtlasSiteOptions } from './list-atlas-files.js';

export interface WriteAtlasSiteOptions extends AtlasSiteOptions, Omit<ReceiptsFinalizerOptions, 'signer'>, Pick<WriteReportFolderOptions, 'cwd' | 'home' | 'shownAs'> {}

/** Writes the site into `outDir` (replacing an earlier atlas or report there); returns the number of files. */
export async function writeAtlasSite(outDir: string, index: AtlasIndex, options: WriteAtlasSiteOptions): Promise<number> {
  const files = listAtlasFiles(index, options);
  const { cwd, home, shownAs } = options;
  // Only inputs, roots and provenance reach the receipts: an atlas is not signed.
  const { finalizeNames, finalize } = createReceiptsFinalizer({ inputs: options.inputs, rootDir: options.rootDir, ...(options.roots ? { roots: options.roots } : {}), ...(options.ran ? { ran: options.ran } : {}) });
  await writeReportFolder(outDir, files, finalize, { finalizeNames, ...(cwd === undefined ? {} : { cwd }), ...(home === undefined ? {} : { home }), ...(shownAs === undefined ? {} : { shownAs }) });
  return files.length + finalizeNames.length;
}
