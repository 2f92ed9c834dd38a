// The public surface of reports/receipts/: what code outside the folder uses. scripts/relayout.mjs made
// this list from the imports; a new caller adds the name it needs.
export { RECEIPTS_FILE, SIGNATURE_FILE, SUMS_FILE, createReceipts, hashFile, mapWithLimit } from './receipts.js';
export type { ReceiptInput, ReceiptRootOption, ReceiptsSigner, RunProvenance, TargetProvenance } from './receipts.js';
export { loadSigningKey, loadVerifyKey } from './sign-receipts.js';
export { verifyReport } from './verify.js';
export { createReceiptsFinalizer } from './receipts-finalizer.js';
export type { ReceiptsFinalizerOptions } from './receipts-finalizer.js';
