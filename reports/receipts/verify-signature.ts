// `verify --key PUB`: the detached Ed25519 signature of receipts.json (receipts.json.sig) must be
// present and made by the key's private half over receipts.json's exact bytes.
import type { KeyObject } from 'node:crypto';
import { resolve } from 'node:path';
import { RECEIPTS_FILE_MAX_BYTES } from '../../runner/io/input-caps.js';
import { readUserFile, readUserText, UserFileError } from '../../runner/io/read-user-file.js';
import { RECEIPTS_FILE, SIGNATURE_FILE } from './receipts.js';
import { checkSignature, fingerprintPublicKey, SIGNATURE_FILE_MAX_BYTES } from './sign-receipts.js';

/** A mismatch as verify lists it. */
interface Mismatch {
  path: string;
  expected: string;
  actual: string;
}

/** Checks SIGNATURE_FILE against receipts.json's bytes with `key`; a missing or wrong signature is a mismatch. */
export async function checkReceiptsSignature(reportDir: string, key: KeyObject, mismatches: Mismatch[]): Promise<'valid' | undefined> {
  const expected = `an Ed25519 signature of ${RECEIPTS_FILE} by the --key key (SHA-256 ${fingerprintPublicKey(key).slice(0, 16)}…)`;
  let signature: string;
  try {
    signature = await readUserText(resolve(reportDir, SIGNATURE_FILE), { maxBytes: SIGNATURE_FILE_MAX_BYTES, what: SIGNATURE_FILE });
  } catch (error) {
    if (!(error instanceof UserFileError)) throw error;
    mismatches.push({ path: SIGNATURE_FILE, expected, actual: error.problem === 'missing' ? 'missing (the report is not signed)' : error.detail });
    return undefined;
  }
  // receipts.json's own problems are already listed by readReceiptText; only its exact bytes are signed.
  const data = await readUserFile(resolve(reportDir, RECEIPTS_FILE), { maxBytes: RECEIPTS_FILE_MAX_BYTES, what: RECEIPTS_FILE }).catch((error: unknown) => {
    if (error instanceof UserFileError) return undefined;
    throw error;
  });
  if (data === undefined) {
    mismatches.push({ path: SIGNATURE_FILE, expected, actual: `not checked: ${RECEIPTS_FILE} cannot be read` });
    return undefined;
  }
  if (checkSignature(data, signature, key)) return 'valid';
  mismatches.push({ path: SIGNATURE_FILE, expected, actual: 'a signature that does not match receipts.json with this key (another key, or the file was changed)' });
  return undefined;
}
