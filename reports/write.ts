// Owns the report folder: every output is written into a fresh sibling folder that then
// replaces the old one by rename, so a report folder is always complete or untouched.
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';

export interface ReportFile {
  name: string;
  /** Whole text or bytes, or text chunks produced lazily and streamed to disk. */
  content: string | Buffer | Iterable<string>;
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
  const hash = createHash('sha256');
  if (typeof content === 'string' || Buffer.isBuffer(content)) {
    const bytes = typeof content === 'string' ? Buffer.from(content) : content;
    await writeFile(path, bytes);
    return { sha256: hash.update(bytes).digest('hex'), bytes: bytes.length };
  }
  let total = 0;
  const handle = await open(path, 'w');
  // Chunks are encoded straight into one reused buffer: joining them first cost a copy per chunk.
  const buffer = Buffer.allocUnsafe(WRITE_BATCH_BYTES);
  let used = 0;
  const writeBytes = async (bytes: Buffer) => {
    hash.update(bytes);
    total += bytes.length;
    let offset = 0;
    while (offset < bytes.length) offset += (await handle.write(bytes, offset)).bytesWritten;
  };
  try {
    for (const chunk of content) {
      // A UTF-16 code unit is at most 3 UTF-8 bytes, so this bound never truncates.
      if (used + chunk.length * 3 > buffer.length) {
        await writeBytes(buffer.subarray(0, used));
        used = 0;
      }
      if (chunk.length * 3 > buffer.length) await writeBytes(Buffer.from(chunk));
      else used += buffer.write(chunk, used);
    }
    if (used) await writeBytes(buffer.subarray(0, used));
  } finally {
    await handle.close();
  }
  return { sha256: hash.digest('hex'), bytes: total };
}

/**
 * Writes all files to `outDir`, replacing it as a whole. `finalize` runs on the staging folder
 * once the files are on disk, with the digest of each file's bytes by name (receipts hash those
 * bytes), and may add more files.
 */
export async function writeReportFolder(
  outDir: string,
  files: ReportFile[],
  finalize?: (stagingDir: string, written: ReadonlyMap<string, WrittenDigest>) => Promise<ReportFile[]>,
): Promise<string[]> {
  const target = resolve(outDir);
  const parent = dirname(target);
  await mkdir(parent, { recursive: true });
  const suffix = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const staging = join(parent, `.${basename(target)}.tmp-${suffix}`);
  const retired = join(parent, `.${basename(target)}.old-${suffix}`);
  await mkdir(staging, { recursive: true });
  let hadOld = false;
  let swapped = false;
  try {
    const written = new Map<string, WrittenDigest>();
    const writeAll = async (batch: ReportFile[]) => {
      for (const file of batch) {
        const path = join(staging, file.name);
        await mkdir(dirname(path), { recursive: true });
        written.set(file.name, await writeContent(path, file.content));
      }
    };
    await writeAll(files);
    const extra = finalize ? await finalize(staging, written) : [];
    await writeAll(extra);
    files = [...files, ...extra];
    hadOld = await rename(target, retired).then(
      () => true,
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return false;
        throw error;
      },
    );
    await rename(staging, target);
    swapped = true;
    if (hadOld) await rm(retired, { recursive: true, force: true });
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    // The old folder was moved aside but the new one never took its place: put it back.
    if (hadOld && !swapped) await rename(retired, target).catch(() => undefined);
    throw error;
  }
  return files.map((file) => join(target, file.name));
}

/** Writes one file atomically (temporary file, then rename). */
export async function writeFileAtomic(path: string, content: string | Buffer): Promise<void> {
  const target = resolve(path);
  await mkdir(dirname(target), { recursive: true });
  const temporary = `${target}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  await writeFile(temporary, content);
  await rename(temporary, target);
}
