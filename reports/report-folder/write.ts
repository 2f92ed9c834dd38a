// Owns the report folder: every output is written into a fresh sibling folder that then
// replaces the old one by rename, so a report folder is always complete or untouched. Only a
// folder the tool may replace is replaced (see check-report-folder.ts), under a lock, and what
// a killed writer left behind is recovered by the next write (see recover-report-folder.ts).
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { checkReportFolder, type ReportFolderPlan } from './check-report-folder.js';
import { describeWriteError, isSystemError } from './describe-fs-error.js';
import { acquireFolderLock } from './folder-lock.js';
import { getSwapPaths, MOUNTPOINT_STAGING_PREFIX, moveStagedFiles, recoverMountpointStaging, recoverReportFolder } from './recover-report-folder.js';
import { isOwnRegularFile, listOwnFiles } from './find-foreign-entries.js';
import type { HeldReportFolder } from './hold-report-folder.js';
import { createReportMarker, REPORT_MARKER_FILE } from './report-marker.js';

export interface ReportFile {
  name: string;
  /** Whole text or bytes, or text (or byte) chunks produced lazily and streamed to disk. */
  content: string | Buffer | Iterable<string | Uint8Array>;
}

// Chunks are gathered into writes of up to this many bytes: few syscalls, bounded memory.
const WRITE_BATCH_BYTES = 1 << 20;

/** SHA-256 and size of the bytes a file was written with. */
export interface WrittenDigest {
  sha256: string;
  bytes: number;
}

/**
 * Writes content to `path` and returns the digest of the bytes written (receipts need it, and
 * hashing here spares reading hundreds of megabytes back). Chunked content is never held
 * whole: a 100,000-cell report is hundreds of megabytes as one string, and once more as bytes
 * inside writeFile.
 */
export async function writeContent(path: string, content: ReportFile['content']): Promise<WrittenDigest> {
  const { digest, flushed } = await writeContentUnflushed(path, content);
  await flushed;
  return digest;
}

/**
 * writeContent, except that the flush to disk (fsync, then close) is left running: `flushed`
 * settles when the file is on disk and closed. A folder's files are flushed while the next one
 * is rendered, and all are awaited before the folder is swapped in.
 */
async function writeContentUnflushed(path: string, content: ReportFile['content']): Promise<{ digest: WrittenDigest; flushed: Promise<void> }> {
  const hash = createHash('sha256');
  let total = 0;
  const handle = await open(path, 'w');
  // At most one write is in flight while the next batch is rendered and encoded: the file
  // system's copy overlaps the rendering instead of following it.
  let pending: Promise<void> = Promise.resolve();
  const writeAll = async (bytes: Buffer) => {
    let offset = 0;
    while (offset < bytes.length) offset += (await handle.write(bytes, offset)).bytesWritten;
  };
  const writeBytes = async (bytes: Buffer) => {
    await pending;
    hash.update(bytes);
    total += bytes.length;
    pending = writeAll(bytes);
    // A failed write is reported by the next await of `pending`, never left unhandled.
    pending.catch(() => undefined);
  };
  try {
    if (typeof content === 'string' || Buffer.isBuffer(content)) await writeBytes(typeof content === 'string' ? Buffer.from(content) : content);
    else {
      // Chunks are encoded straight into two alternating buffers (one may be in flight):
      // joining them first cost a copy per chunk.
      const buffers = [Buffer.allocUnsafe(WRITE_BATCH_BYTES), Buffer.allocUnsafe(WRITE_BATCH_BYTES)];
      let buffer = buffers[0]!;
      let used = 0;
      const flush = async () => {
        await writeBytes(buffer.subarray(0, used));
        buffer = buffer === buffers[0] ? buffers[1]! : buffers[0]!;
        used = 0;
      };
      for (const chunk of content) {
        if (typeof chunk !== 'string') {
          if (used) await flush();
          await writeBytes(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          continue;
        }
        // A UTF-16 code unit is at most 3 UTF-8 bytes, so this bound never truncates.
        if (used + chunk.length * 3 > buffer.length) await flush();
        if (chunk.length * 3 > buffer.length) await writeBytes(Buffer.from(chunk));
        else used += buffer.write(chunk, used);
      }
      if (used) await flush();
    }
    await pending;
  } catch (error) {
    await pending.catch(() => undefined);
    await handle.close();
    throw error;
  }
  // On disk before the folder is swapped in: a power cut must not leave a complete-looking, empty report.
  const flushed = handle.sync().finally(() => handle.close());
  // A failed flush is reported where `flushed` is awaited, never left unhandled meanwhile.
  flushed.catch(() => undefined);
  return { digest: { sha256: hash.digest('hex'), bytes: total }, flushed };
}

/** Points of a write where a test may stop the process, to show that the next write recovers. */
export type ReportWriteStep = 'staged' | 'ready' | 'retired' | 'swapped';

export interface WriteReportFolderOptions {
  /** What `outDir` is relative to, and the working directory that is never replaced. @default process.cwd() */
  cwd?: string;
  /** @default os.homedir() */
  home?: string | undefined;
  /** How the folder appears in messages (the --out value as given). @default outDir */
  shownAs?: string;
  /** How long to wait for another writer of the same folder. @default 120000 */
  lockWaitMs?: number;
  /** Called at each step of the swap; for crash tests only. */
  onStep?: (step: ReportWriteStep) => void | Promise<void>;
  /** The names of the files `finalize` adds (receipts…): the marker lists them with the others, so the tool knows every file it wrote. */
  finalizeNames?: readonly string[];
  /** The folder's lock, already taken by this process (holdReportFolder, before the run): used, and left held. @default taken and released here */
  held?: HeldReportFolder;
}

export type Finalize = (stagingDir: string, written: ReadonlyMap<string, WrittenDigest>) => Promise<ReportFile[]>;

/**
 * Writes all files to `outDir`, replacing it as a whole, with the report marker first (so even
 * a half-written staging folder is recognisably ours). `finalize` runs on the staging folder
 * once the files are on disk, with the digest of each file's bytes by name (the marker
 * included; receipts hash those bytes), and may add more files.
 *
 * Refuses (OutputFolderError, nothing touched) a folder that is not absent, empty or a report
 * folder of ours, and maps file-system errors (ENOSPC, EACCES, EBUSY…) to OutputFolderError.
 *
 * Why two renames and a journal rather than an atomic exchange: Node has no renameat2
 * (RENAME_EXCHANGE), and making `outDir` a symlink to versioned folders would change what users,
 * artifact uploaders and Windows see. So the swap is: the staging folder `.NAME.tmp-ID` is
 * complete and flushed, then renamed `.NAME.new-ID` (that rename is the journal entry "this one
 * is complete"), the old folder is renamed `.NAME.old-ID`, and `.NAME.new-ID` is renamed into
 * place. At every moment the old or the new complete report is either at `outDir`, or (only
 * between the two adjacent renames) in `.NAME.new-ID`/`.NAME.old-ID`, from where the next write
 * to `outDir` puts it back before doing anything else. Leftover staging folders are removed by
 * the same recovery. A mountpoint cannot be renamed: it is written into, file by file, each
 * file replaced atomically.
 */
export async function writeReportFolder(outDir: string, files: ReportFile[], finalize?: Finalize, options: WriteReportFolderOptions = {}): Promise<string[]> {
  const cwd = options.cwd ?? process.cwd();
  const shownAs = options.shownAs ?? outDir;
  const check = () => checkReportFolder(outDir, { cwd, home: options.home ?? homedir(), shownAs });
  const plan = options.held?.plan ?? (await check());
  const paths = getSwapPaths(plan.target, `${process.pid}-${randomBytes(4).toString('hex')}`);
  let release: (() => Promise<void>) | undefined;
  try {
    if (!options.held) {
      await mkdir(dirname(plan.target), { recursive: true });
      release = await acquireFolderLock(paths.lock, { shownAs, ...(options.lockWaitMs === undefined ? {} : { waitMs: options.lockWaitMs }) });
    }
    if (plan.mountpoint) await recoverMountpointStaging(plan.target);
    else await recoverReportFolder(plan.target);
    // Checked again under the lock: recovery may have restored a folder, or someone changed it.
    const locked = await check();
    const marker = createReportMarker([...files.map((file) => file.name), ...(options.finalizeNames ?? [])]);
    const written = locked.mountpoint ? await writeIntoMountpoint(locked, files, finalize, options, marker) : await swapInFolder(locked, paths, files, finalize, options, marker);
    return written.map((name) => join(locked.target, name));
  } catch (error) {
    throw finalizeErrors.has(error as object) ? error : describeWriteError(error, shownAs);
  } finally {
    // A held lock belongs to the caller, who releases it once done with the folder.
    await release?.();
  }
}

// Errors thrown by `finalize` (e.g. receipts failing to read an input file) are about its own
// inputs, not about the report folder: they pass through unchanged.
const finalizeErrors = new WeakSet<object>();

/** Writes the marker, the files and finalize's files into `dir`; returns the names written. */
async function writeStaging(dir: string, files: ReportFile[], finalize: Finalize | undefined, options: WriteReportFolderOptions, marker: string): Promise<string[]> {
  const written = new Map<string, WrittenDigest>();
  // Each file is flushed to disk while the next is rendered; all are on disk before this returns.
  const flushes: Promise<void>[] = [];
  const writeAll = async (batch: ReportFile[]) => {
    for (const file of batch) {
      const path = join(dir, file.name);
      await mkdir(dirname(path), { recursive: true });
      const { digest, flushed } = await writeContentUnflushed(path, file.content);
      flushes.push(flushed);
      written.set(file.name, digest);
    }
  };
  try {
    await writeAll([{ name: REPORT_MARKER_FILE, content: marker }, ...files]);
    const extra = finalize
      ? await finalize(dir, written).catch((error: unknown) => {
          if (typeof error === 'object' && error !== null) finalizeErrors.add(error);
          throw error;
        })
      : [];
    // The marker listed what would be written: a file it does not name would be taken for someone else's next time.
    const undeclared = extra.filter((file) => !(options.finalizeNames ?? []).includes(file.name));
    if (undeclared.length > 0) throw new Error(`writeReportFolder: finalize wrote ${undeclared.map((file) => file.name).join(', ')}, not declared in finalizeNames`);
    await writeAll(extra);
    await Promise.all(flushes);
    await syncFolder(dir);
    return [...files, ...extra].map((file) => file.name);
  } finally {
    // On failure too: every file is closed before the staging folder is removed.
    await Promise.allSettled(flushes);
  }
}

async function swapInFolder(plan: ReportFolderPlan, paths: ReturnType<typeof getSwapPaths>, files: ReportFile[], finalize: Finalize | undefined, options: WriteReportFolderOptions, marker: string): Promise<string[]> {
  let stage: 'tmp' | 'new' | 'old' | 'done' = 'tmp';
  let names: string[];
  try {
    await mkdir(paths.tmp);
    names = await writeStaging(paths.tmp, files, finalize, options, marker);
    await options.onStep?.('staged');
    await rename(paths.tmp, paths.new);
    stage = 'new';
    await options.onStep?.('ready');
    if (plan.state !== 'absent') {
      await rename(plan.target, paths.old);
      stage = 'old';
      await options.onStep?.('retired');
    }
    await rename(paths.new, plan.target);
    stage = 'done';
  } catch (error) {
    // Undo what this writer did; the old folder goes back to its place. If even that fails, both
    // complete reports stay beside it, for the next write's recovery.
    const restored = stage !== 'old' || (await rename(paths.old, plan.target).then(() => true, () => false));
    if (restored) await rm(stage === 'tmp' ? paths.tmp : paths.new, { recursive: true, force: true }).catch(() => undefined);
    throw error;
  }
  // The new report is in place: what follows is tidying, and a failure there is recovered by the next write.
  await options.onStep?.('swapped');
  await syncFolder(dirname(plan.target)).catch(() => undefined);
  await rm(paths.old, { recursive: true, force: true }).catch(() => undefined);
  return names;
}

/**
 * A mountpoint cannot be renamed: stage inside it, mark the staging complete (rename to
 * `.mcp-error-matrix.new-ID`), then move each file into place (each rename is atomic; the marker
 * last). A writer killed while moving leaves the complete `.new-` folder, and the next write's
 * recovery finishes the moves, so the folder ends up holding the new report whole.
 */
async function writeIntoMountpoint(plan: ReportFolderPlan, files: ReportFile[], finalize: Finalize | undefined, options: WriteReportFolderOptions, marker: string): Promise<string[]> {
  // The marker goes in first, so a crash below leaves a folder the next run recognises and recovers.
  if (plan.state === 'empty') await writeContent(join(plan.target, REPORT_MARKER_FILE), marker);
  // The old report's files: those the new one does not write again are removed once it is in place.
  const previous = (await listOwnFiles(plan.target)) ?? new Set<string>();
  const id = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const staging = join(plan.target, `${MOUNTPOINT_STAGING_PREFIX.tmp}${id}`);
  const complete = join(plan.target, `${MOUNTPOINT_STAGING_PREFIX.new}${id}`);
  let moving = false;
  try {
    await mkdir(staging);
    const names = await writeStaging(staging, files, finalize, options, marker);
    await options.onStep?.('staged');
    await rename(staging, complete);
    moving = true;
    await options.onStep?.('ready');
    await moveStagedFiles(complete, plan.target);
    moving = false;
    for (const name of previous) {
      if (name !== REPORT_MARKER_FILE && !names.includes(name) && (await isOwnRegularFile(plan.target, name))) await rm(join(plan.target, name), { force: true });
    }
    await syncFolder(plan.target);
    await options.onStep?.('swapped');
    return names;
  } finally {
    // A move that failed half-way keeps its complete staging: the next write finishes the moves.
    await rm(staging, { recursive: true, force: true }).catch(() => undefined);
    if (!moving) await rm(complete, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** Flushes a folder's entries to disk, so a rename that follows survives a power cut. */
async function syncFolder(dir: string): Promise<void> {
  let handle;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch (error) {
    // Some platforms (Windows) and file systems cannot open or flush a folder: the renames still hold.
    if (!isSystemError(error) || !['EISDIR', 'EINVAL', 'EPERM', 'EACCES', 'ENOTSUP'].includes(error.code)) throw error;
  } finally {
    await handle?.close();
  }
}

/** Writes one file atomically (temporary file, then rename). */
export async function writeFileAtomic(path: string, content: string | Buffer): Promise<void> {
  const target = resolve(path);
  await mkdir(dirname(target), { recursive: true });
  const temporary = `${target}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  await writeFile(temporary, content);
  await rename(temporary, target);
}
