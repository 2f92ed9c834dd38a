// Writes an atlas site as one report folder (write.ts): staged beside, swapped in whole, refused if
// the folder holds anything the tool did not write; then receipts over every file of the site and
// the inputs that made it (case files, schemas, the runner's code, the client packages still
// installed), so `verify <site>` checks it after it moved, like any report folder.
import type { AtlasIndex } from '../../runner/atlas/atlas-types.js';
import { createReceipts, RECEIPTS_FILE, SUMS_FILE, type ReceiptInput, type ReceiptRootOption, type RunProvenance } from '../receipts/index.js';
import { writeReportFolder, type WriteReportFolderOptions } from '../report-folder/index.js';
import { listAtlasFiles, type AtlasSiteOptions } from './list-atlas-files.js';

export interface WriteAtlasSiteOptions extends AtlasSiteOptions, Pick<WriteReportFolderOptions, 'cwd' | 'home' | 'shownAs'> {
  inputs: ReceiptInput[];
  /** The package root ("package", located by the verifying tool). */
  rootDir: string;
  roots?: Record<string, ReceiptRootOption>;
  ran?: RunProvenance;
}

const PACKAGE_ROOT_WHAT = 'the mcp-error-matrix package that ran; located by the verifying tool';

/** Writes the site into `outDir` (replacing an earlier atlas or report there); returns the number of files. */
export async function writeAtlasSite(outDir: string, index: AtlasIndex, options: WriteAtlasSiteOptions): Promise<number> {
  const files = listAtlasFiles(index, options);
  const { cwd, home, shownAs } = options;
  await writeReportFolder(
    outDir,
    files,
    async (staging, written) => {
      const receipts = await createReceipts({
        inputs: options.inputs,
        outputs: [...written.keys()],
        outputDigests: written,
        outDir: staging,
        roots: { package: { dir: options.rootDir, what: PACKAGE_ROOT_WHAT, recordLocation: false }, ...options.roots },
        ...(options.ran ? { ran: options.ran } : {}),
      });
      return [
        { name: RECEIPTS_FILE, content: receipts.receiptsJson },
        { name: SUMS_FILE, content: receipts.sha256sums },
      ];
    },
    // The marker names the receipts too, so a later atlas or run knows the tool wrote them (issue 28).
    { finalizeNames: [RECEIPTS_FILE, SUMS_FILE], ...(cwd === undefined ? {} : { cwd }), ...(home === undefined ? {} : { home }), ...(shownAs === undefined ? {} : { shownAs }) },
  );
  return files.length + 2;
}
