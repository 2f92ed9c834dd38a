// Turns a file-system error met while writing the report folder into a clear OutputFolderError
// (exit 2) naming the path and the cause, instead of an "internal error" with a stack.
import { OutputFolderError } from '../../runner/util/errors.js';

const CAUSES: Record<string, string> = {
  ENOSPC: 'no space left on the device; free some space or choose another --out',
  EDQUOT: 'the disk quota is exhausted; free some space or choose another --out',
  EACCES: 'permission denied; choose a folder you can write to',
  EPERM: 'operation not permitted; choose a folder you can write to',
  EROFS: 'the file system is read-only; choose a writable folder',
  EBUSY: 'the path is busy (in use by another process, or a mountpoint); close what uses it or choose another --out',
  ENOTDIR: 'a part of the path is a file, not a folder',
  EISDIR: 'a folder is in the way of a file',
  EEXIST: 'something is already in the way',
  ENOTEMPTY: 'a folder in the way is not empty',
  ENOENT: 'a folder on the path does not exist or vanished while writing',
  ENAMETOOLONG: 'the path is too long',
  ELOOP: 'too many symbolic links on the path',
  EMFILE: 'too many open files',
  ENFILE: 'too many open files on the system',
  EIO: 'an input/output error from the device',
  EXDEV: 'the path crosses file systems',
  EINVAL: 'the file system refused the operation',
};

/** Whether `error` is a Node.js system error (it has a string `code` such as ENOSPC). */
export function isSystemError(error: unknown): error is NodeJS.ErrnoException & { code: string } {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string' && /^E[A-Z0-9]+$/.test((error as NodeJS.ErrnoException).code!);
}

/**
 * An OutputFolderError for a system error met while writing `--out shownAs`; any other error
 * (a bug) is returned unchanged so it keeps its stack.
 */
export function describeWriteError(error: unknown, shownAs: string): unknown {
  if (!isSystemError(error)) return error;
  const cause = CAUSES[error.code] ?? 'the operating system refused it';
  const where = error.path ? ` (${error.syscall ?? 'at'} ${error.path})` : '';
  return new OutputFolderError('unwritable', `--out ${JSON.stringify(shownAs)}: cannot write the report: ${cause} [${error.code}]${where}`, { cause: error });
}
