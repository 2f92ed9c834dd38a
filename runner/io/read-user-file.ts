// The one way to read a file someone else supplied (case files, verdict files, baselines, results
// files, receipts entries, schemas, `validate` input): opened non-blocking so a FIFO cannot hang the
// open, refused unless fstat says it is a regular file (a FIFO, /dev/zero, a socket or a folder is
// named as such), read up to a stated cap, and optionally decoded as strict UTF-8. Issue 11 items 4, 5, 15.
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { RunnerError } from '../util/errors.js';
import { findInvalidUtf8 } from './find-invalid-utf8.js';

export interface ReadUserFileOptions {
  /** Bytes read at most; a larger file is refused with the cap in the message. */
  maxBytes: number;
  /** What the file is, for messages: "case file", "verdict file", "baseline", … */
  what: string;
  /** Refuse a symlink at the path itself (O_NOFOLLOW), for files the tool wrote into a folder someone else may control. @default false */
  noFollow?: boolean;
}

/** Why a user-supplied file was refused. */
export type UserFileProblem = 'missing' | 'not-regular' | 'too-large' | 'symlink-loop' | 'invalid-utf8' | 'unreadable';

/** A user-supplied file that is absent, not a regular file, over its cap, not UTF-8 or unreadable. */
export class UserFileError extends RunnerError {
  constructor(
    readonly path: string,
    readonly problem: UserFileProblem,
    /** The message without the path, for callers that name the file their own way. */
    readonly detail: string,
    options?: { cause?: unknown },
  ) {
    super('MEM_INPUT_FILE', `${path}: ${detail}`, options);
  }
}

// O_NONBLOCK: opening a FIFO for reading returns at once instead of waiting for a writer (which
// blocked a libuv thread beyond the reach of signals). It changes nothing for regular files.
// O_NOCTTY: a terminal named as input never becomes the controlling terminal. Both are 0 on Windows.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);
const CHUNK_BYTES = 64 * 1024;

function getOpenFlags(options: ReadUserFileOptions): number {
  return options.noFollow ? OPEN_FLAGS | (constants.O_NOFOLLOW ?? 0) : OPEN_FLAGS;
}

/** Reads a user-supplied regular file, at most `maxBytes`; throws UserFileError otherwise. */
export async function readUserFile(path: string, options: ReadUserFileOptions): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  await forEachUserFileChunk(path, options, (chunk) => {
    chunks.push(chunk);
    total += chunk.length;
  });
  return Buffer.concat(chunks, total);
}

/**
 * Opens a user-supplied regular file as readUserFile does and hands its bytes, in order, to
 * `onChunk`, never more than the cap in all. For streaming work such as hashing.
 */
export async function forEachUserFileChunk(path: string, options: ReadUserFileOptions, onChunk: (chunk: Buffer) => void): Promise<number> {
  let handle: FileHandle;
  try {
    handle = await open(path, getOpenFlags(options));
  } catch (error) {
    throw describeOpenError(path, options, error);
  }
  try {
    const stats = await handle.stat();
    assertReadable(path, options, stats);
    let total = 0;
    for (;;) {
      const buffer = Buffer.allocUnsafe(getChunkSize(stats, options, total));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total > options.maxBytes) throw tooLarge(path, options);
      onChunk(buffer.subarray(0, bytesRead));
      if (isWhole(stats, total)) break;
    }
    return total;
  } catch (error) {
    throw error instanceof UserFileError ? error : describeOpenError(path, options, error);
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** The same, synchronously (the case loader also runs inside vitest's synchronous collection). */
export function readUserFileSync(path: string, options: ReadUserFileOptions): Buffer {
  const chunks: Buffer[] = [];
  const total = forEachUserFileChunkSync(path, options, (chunk) => chunks.push(chunk));
  return Buffer.concat(chunks, total);
}

/**
 * forEachUserFileChunk, synchronously: no thread-pool round trip per open, stat, read and close,
 * which is most of the cost of hashing hundreds of small files; it blocks the event loop for the
 * whole read, so it suits small files (receipts.ts hashes large ones with the streamed version).
 */
export function forEachUserFileChunkSync(path: string, options: ReadUserFileOptions, onChunk: (chunk: Buffer) => void): number {
  let fd: number;
  try {
    fd = openSync(path, getOpenFlags(options));
  } catch (error) {
    throw describeOpenError(path, options, error);
  }
  try {
    const stats = fstatSync(fd);
    assertReadable(path, options, stats);
    let total = 0;
    for (;;) {
      const buffer = Buffer.allocUnsafe(getChunkSize(stats, options, total));
      const bytesRead = readSync(fd, buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total > options.maxBytes) throw tooLarge(path, options);
      onChunk(buffer.subarray(0, bytesRead));
      if (isWhole(stats, total)) break;
    }
    return total;
  } catch (error) {
    throw error instanceof UserFileError ? error : describeOpenError(path, options, error);
  } finally {
    closeSync(fd);
  }
}

/** Decodes bytes as strict UTF-8 (a leading BOM dropped); invalid bytes are refused with their offset. */
export function decodeUserText(path: string, bytes: Uint8Array, what: string): string {
  const offset = findInvalidUtf8(bytes);
  if (offset !== undefined) {
    throw new UserFileError(path, 'invalid-utf8', `the ${what} is not valid UTF-8 (invalid byte 0x${bytes[offset]!.toString(16).padStart(2, '0')} at byte offset ${offset}); save it as UTF-8`);
  }
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** readUserFile, then strict UTF-8 decoding. */
export async function readUserText(path: string, options: ReadUserFileOptions): Promise<string> {
  return decodeUserText(path, await readUserFile(path, options), options.what);
}

/** A byte count for messages: "16 MiB", "256 KiB", "100 bytes". */
export function formatByteCap(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

// A chunk no larger than what fstat says is left (a small file gets a buffer its size, not 64
// KiB), and one byte over the cap at most, so a file that grew past it is still refused.
function getChunkSize(stats: Stats, options: ReadUserFileOptions, total: number): number {
  const left = stats.size > total ? stats.size - total : CHUNK_BYTES;
  return Math.min(CHUNK_BYTES, left, options.maxBytes + 1 - total);
}

// The bytes fstat promised have all arrived: skip the read that would only confirm the end. A size
// of 0 promises nothing (files under /proc report 0 and still have content), so those read to EOF.
function isWhole(stats: Stats, total: number): boolean {
  return stats.size > 0 && total >= stats.size;
}

function assertReadable(path: string, options: ReadUserFileOptions, stats: Stats): void {
  if (!stats.isFile()) {
    throw new UserFileError(path, 'not-regular', `the ${options.what} is not a regular file (it is ${describeKind(stats)}); give a regular file`);
  }
  // The size from fstat refuses a huge file unread; the bounded read below still guards one that grows.
  if (stats.size > options.maxBytes) throw tooLarge(path, options, stats.size);
}

function tooLarge(path: string, options: ReadUserFileOptions, size?: number): UserFileError {
  const found = size === undefined ? 'more than that' : `${size} bytes`;
  return new UserFileError(path, 'too-large', `the ${options.what} is larger than the ${formatByteCap(options.maxBytes)} cap (${found})`);
}

function describeKind(stats: Stats): string {
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSocket()) return 'a socket';
  if (stats.isDirectory()) return 'a folder';
  return 'not a file';
}

function describeOpenError(path: string, options: ReadUserFileOptions, error: unknown): UserFileError {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return new UserFileError(path, 'missing', `cannot read the ${options.what}: no such file`, { cause: error });
  if (code === 'ELOOP') return new UserFileError(path, 'symlink-loop', `the ${options.what} is a symlink loop (too many levels of symbolic links); point the link at a regular file`, { cause: error });
  if (code === 'EISDIR') return new UserFileError(path, 'not-regular', `the ${options.what} is not a regular file (it is a folder); give a regular file`, { cause: error });
  // ENXIO: a UNIX socket cannot be opened; EAGAIN/EWOULDBLOCK on a non-blocking special file.
  if (code === 'ENXIO' || code === 'EAGAIN' || code === 'EWOULDBLOCK') {
    return new UserFileError(path, 'not-regular', `the ${options.what} is not a regular file (it is a socket or device); give a regular file`, { cause: error });
  }
  return new UserFileError(path, 'unreadable', `the ${options.what} cannot be read (${(error as Error).message})`, { cause: error });
}
