// Fetches one pinned schema over HTTP(S) with undici, verifying size and SHA-256 before
// anything is written to disk.
import type { SchemaPin } from './pins.js';
import { SchemaLoadError } from './schema-errors.js';
import { assertPinned } from './schema-files.js';

/** The part of `fetch` this module uses, so tests can pass their own. */
export type FetchLike = (
  url: string,
  init: { signal: AbortSignal; redirect: 'follow' },
) => Promise<{ ok: boolean; status: number; body: AsyncIterable<Uint8Array> | null }>;

export interface DownloadOptions {
  fetchImpl?: FetchLike;
  /** Replaces the pin URL's origin (scheme, host, port), keeping its path: for tests and mirrors. */
  baseUrlOverride?: string;
  /** @default 30000 */
  timeoutMs?: number;
}

/** The URL a pin is downloaded from, after any base-URL override. */
export function getDownloadUrl(pin: SchemaPin, baseUrlOverride?: string): string {
  if (!baseUrlOverride) return pin.url;
  const base = new URL(baseUrlOverride);
  const path = new URL(pin.url).pathname;
  return new URL(base.pathname.replace(/\/$/, '') + path, base.origin).toString();
}

/** Downloads a pinned schema and returns its verified bytes; a failure throws SchemaLoadError. */
export async function downloadPinnedSchema(pin: SchemaPin, options: DownloadOptions = {}): Promise<Buffer> {
  const url = getDownloadUrl(pin, options.baseUrlOverride);
  // undici loads only when a download happens (about 150 ms that every run with cached schemas saved).
  const fetchImpl = options.fetchImpl ?? ((await import('undici')).fetch as unknown as FetchLike);
  const signal = AbortSignal.timeout(options.timeoutMs ?? 30_000);
  let bytes: Buffer;
  try {
    const response = await fetchImpl(url, { signal, redirect: 'follow' });
    if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
    bytes = await readCapped(response.body, pin.bytes);
  } catch (error) {
    throw new SchemaLoadError('MEM_SCHEMA_UNAVAILABLE', `download of ${url} failed: ${describe(error)}`, { cause: error });
  }
  assertPinned(url, bytes, pin);
  return bytes;
}

// The pin says how many bytes to expect; a server streaming far more is not serving the pin.
async function readCapped(body: AsyncIterable<Uint8Array>, expected: number): Promise<Buffer> {
  const limit = expected + 1024;
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of body) {
    total += chunk.byteLength;
    if (total > limit) throw new Error(`more than ${limit} bytes (the pinned file has ${expected})`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return error.message + cause;
}
