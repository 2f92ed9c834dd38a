// The last step of every report folder the tool writes (a run's reports, an atlas site): receipts
// over the files just written and the inputs that made them, and the names of those receipt files,
// which the folder's marker must list before they exist (write.ts refuses a finalize file it did not
// name). One place, so a new kind of folder cannot forget either half.
import type { Finalize } from '../report-folder/index.js';
import { createReceipts, RECEIPTS_FILE, SIGNATURE_FILE, SUMS_FILE, type ReceiptInput, type ReceiptRootOption, type ReceiptsSigner, type RunProvenance } from './receipts.js';

export interface ReceiptsFinalizerOptions {
  /** Every input read (case files, schemas, baseline, runner code, target files). */
  inputs: ReceiptInput[];
  /** The package root: inputs under it are recorded under the root "package", which verify locates itself. */
  rootDir: string;
  /** More named roots inputs are recorded relative to (the user's --cases, a classifier's folder…). */
  roots?: Record<string, ReceiptRootOption>;
  /** What ran (tool, commit, Node, target packages). */
  ran?: RunProvenance;
  /** Signs receipts.json (`run --sign KEY`); the signature goes into the folder as receipts.json.sig. */
  signer?: ReceiptsSigner;
}

const PACKAGE_ROOT_WHAT = 'the mcp-error-matrix package that ran; located by the verifying tool';

/** The receipt files' names (for the marker) and the finalize step that writes them. */
export function createReceiptsFinalizer(options: ReceiptsFinalizerOptions): { finalizeNames: string[]; finalize: Finalize } {
  const finalizeNames = [RECEIPTS_FILE, ...(options.signer ? [SIGNATURE_FILE] : []), SUMS_FILE];
  const finalize: Finalize = async (staging, written) => {
    // The outputs were hashed as they were written: no need to read them back. Every file of the
    // folder is listed, the report marker included.
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
  };
  return { finalizeNames, finalize };
}
