// Everything about `--out` that can be known before a run is checked before its first cell
// (issue 28 items 5 and 7): the folder may be replaced (check-report-folder.ts), its lock is
// taken and held until the reports are written (a lock that is not a lock is refused at once,
// never after every cell ran), and the folder can be written (a read-only `--out` is found now,
// not after the run).
import { constants } from 'node:fs';
import { access, mkdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname } from 'node:path';
import { checkReportFolder, type CheckReportFolderOptions, type ReportFolderPlan } from './check-report-folder.js';
import { describeWriteError } from './describe-fs-error.js';
import { acquireFolderLock, type FolderLockOptions } from './folder-lock.js';
import { getSwapPaths } from './recover-report-folder.js';

/** A report folder checked and locked for this process; writeReportFolder writes it under this lock. */
export interface HeldReportFolder {
  plan: ReportFolderPlan;
  /** The lock file beside the folder. */
  lockPath: string;
  /** Releases the lock (once the reports are written, or the run ended without them). */
  release(): Promise<void>;
}

export interface HoldReportFolderOptions extends CheckReportFolderOptions, Pick<FolderLockOptions, 'signal' | 'onWait' | 'waitMs'> {}

/** Checks `--out given`, takes its lock and checks it can be written; throws an OutputFolderError (exit 2) otherwise. */
export async function holdReportFolder(given: string, options: HoldReportFolderOptions): Promise<HeldReportFolder> {
  const shownAs = options.shownAs ?? given;
  const checkOptions = { cwd: options.cwd, home: options.home ?? homedir(), shownAs };
  const plan = await checkReportFolder(given, checkOptions);
  const lockPath = getSwapPaths(plan.target, 'lock').lock;
  let release: (() => Promise<void>) | undefined;
  try {
    // The lock is created beside the folder, where its staging folder will be: that proves the parent writable.
    await mkdir(dirname(plan.target), { recursive: true });
    release = await acquireFolderLock(lockPath, { shownAs, ...pick(options) });
    // An existing folder is written into (a mountpoint) or emptied once replaced: it must be writable too.
    if (plan.state !== 'absent') await access(plan.target, constants.W_OK);
    return { plan: await checkReportFolder(given, checkOptions), lockPath, release };
  } catch (error) {
    await release?.();
    throw describeWriteError(error, shownAs);
  }
}

function pick(options: HoldReportFolderOptions): Pick<FolderLockOptions, 'signal' | 'onWait' | 'waitMs'> {
  return {
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onWait ? { onWait: options.onWait } : {}),
    ...(options.waitMs === undefined ? {} : { waitMs: options.waitMs }),
  };
}
