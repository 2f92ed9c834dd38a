// Optional Ed25519 signing of receipts.json (`run --sign KEY`, `verify --key PUB`), with Node's
// crypto. A signature says the receipts were written by whoever holds the private key; without one,
// anyone can rewrite a report and recompute its receipts (forgery is possible by design).
import { createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { UsageError } from '../../runner/util/errors.js';
import { readUserFile, UserFileError } from '../../runner/io/read-user-file.js';
import type { ReceiptsSigner } from './receipts.js';

/** A PEM key file is a few hundred bytes; anything past this is not a key. */
export const KEY_FILE_MAX_BYTES = 64 * 1024;
/** An Ed25519 signature is 64 bytes, 88 in base64: the signature file is read up to this. */
export const SIGNATURE_FILE_MAX_BYTES = 4 * 1024;

/** SHA-256 of a public key's SPKI DER encoding: the key's fingerprint recorded in receipts.json. */
export function fingerprintPublicKey(key: KeyObject): string {
  return createHash('sha256').update(key.export({ type: 'spki', format: 'der' })).digest('hex');
}

/** Reads an Ed25519 private key (PEM) for `flag`; a missing, oversized or wrong key is a UsageError naming both. */
export async function loadSigningKey(path: string, flag: string, shownAs = path): Promise<ReceiptsSigner> {
  const key = parseKey(await readKeyFile(path, flag, shownAs), 'private', flag, shownAs);
  const publicKeySha256 = fingerprintPublicKey(createPublicKey(key));
  return { publicKeySha256, sign: (data) => sign(null, data, key).toString('base64') };
}

/** Reads an Ed25519 public key (PEM; a private key file also works: its public half is used). */
export async function loadVerifyKey(path: string, flag: string, shownAs = path): Promise<KeyObject> {
  const pem = await readKeyFile(path, flag, shownAs);
  return /PRIVATE KEY/.test(pem) ? createPublicKey(parseKey(pem, 'private', flag, shownAs)) : parseKey(pem, 'public', flag, shownAs);
}

/** Whether `signature` (base64 text) is a valid Ed25519 signature of `data` by `key`. */
export function checkSignature(data: Buffer, signature: string, key: KeyObject): boolean {
  const bytes = Buffer.from(signature.trim(), 'base64');
  if (bytes.length !== 64) return false;
  return verify(null, data, key, bytes);
}

async function readKeyFile(path: string, flag: string, shownAs: string): Promise<string> {
  try {
    return (await readUserFile(path, { maxBytes: KEY_FILE_MAX_BYTES, what: 'key file' })).toString('utf8');
  } catch (error) {
    if (error instanceof UserFileError) throw new UsageError(`${flag} ${shownAs}: ${error.detail}; expected an Ed25519 key in PEM form`);
    throw error;
  }
}

function parseKey(pem: string, type: 'private' | 'public', flag: string, shownAs: string): KeyObject {
  let key: KeyObject;
  try {
    key = type === 'private' ? createPrivateKey(pem) : createPublicKey(pem);
  } catch (error) {
    throw new UsageError(`${flag} ${shownAs}: not a readable ${type} key in PEM form (${(error as Error).message}); create one with \`openssl genpkey -algorithm ed25519 -out key.pem\`${type === 'public' ? ' and `openssl pkey -in key.pem -pubout -out key.pub`' : ''}`);
  }
  if (key.asymmetricKeyType !== 'ed25519') {
    throw new UsageError(`${flag} ${shownAs}: an ${key.asymmetricKeyType ?? 'unknown'} key; receipts are signed with Ed25519 only (\`openssl genpkey -algorithm ed25519\`)`);
  }
  return key;
}
