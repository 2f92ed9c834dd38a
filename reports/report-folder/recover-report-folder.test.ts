// The recovery that runs before every write (recover-report-folder.ts), on real temporary folders:
// after a writer was killed, the newest complete report takes the missing folder's place, every
// other leftover of ours is removed, and nothing without our marker (or not named exactly as our
// leftovers are) is touched. The leftovers' ages are set with utimes, never waited for.
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../../test/temp-dirs.js';
import { MOUNTPOINT_STAGING_PREFIX, getSwapPaths, moveStagedFiles, recoverMountpointStaging, recoverReportFolder } from './recover-report-folder.js';
import { createReportMarker, REPORT_MARKER_FILE } from './report-marker.js';

const makeTempDir = useTempDirs();

/** A folder of ours at `path` (the marker and a label file), last modified at `seconds`. */
function report(path: string, label: string, seconds = 1_000_000): string {
  mkdirSync(path, { recursive: true });
  writeFileSync(join(path, 'label.txt'), label);
  writeFileSync(join(path, REPORT_MARKER_FILE), createReportMarker(['label.txt']));
  utimesSync(path, seconds, seconds);
  return path;
}
const label = (path: string) => readFileSync(join(path, 'label.txt'), 'utf8');

describe('recovering a report folder after a killed writer', () => {
  it('names its leftovers .NAME.tmp-ID, .NAME.new-ID, .NAME.old-ID and its lock .NAME.lock, beside the folder', () => {
    expect(getSwapPaths('/a/report', '1-0badc0de')).toEqual({
      tmp: '/a/.report.tmp-1-0badc0de',
      new: '/a/.report.new-1-0badc0de',
      old: '/a/.report.old-1-0badc0de',
      lock: '/a/.report.lock',
    });
  });

  it('puts the newest complete (.new-) report in place of a missing folder, before any retired (.old-) one, and removes the rest', async () => {
    const dir = makeTempDir('recover-');
    const out = join(dir, 'report');
    const older = report(join(dir, '.report.new-1-0000000a'), 'older new', 2_000_000);
    const newest = report(join(dir, '.report.new-2-0000000b'), 'newest new', 3_000_000);
    const oldest = report(join(dir, '.report.new-3-0000000c'), 'oldest new', 1_000_000);
    const retired = report(join(dir, '.report.old-4-0000000d'), 'retired', 4_000_000);
    const partial = report(join(dir, '.report.tmp-5-0000000e'), 'partial', 5_000_000);
    const result = await recoverReportFolder(out);
    expect(label(out)).toBe('newest new');
    expect(result.restored).toBe(newest);
    expect(result.removed.sort()).toEqual([older, oldest, retired, partial].sort());
    expect(readdirSync(dir)).toEqual(['report']);
  });

  it('puts the newest retired (.old-) report back when no complete one is left, and removes a partial one', async () => {
    const dir = makeTempDir('recover-');
    const out = join(dir, 'report');
    report(join(dir, '.report.old-1-0000000a'), 'old one', 1_000_000);
    const newer = report(join(dir, '.report.old-2-0000000b'), 'newer old', 2_000_000);
    const partial = report(join(dir, '.report.tmp-3-0000000c'), 'partial', 3_000_000);
    const result = await recoverReportFolder(out);
    expect(label(out)).toBe('newer old');
    expect(result).toEqual({ restored: newer, removed: [expect.stringContaining('.report.'), expect.stringContaining('.report.')] });
    expect(result.removed).toContain(partial);
    expect(readdirSync(dir)).toEqual(['report']);
  });

  it('never puts a partial (.tmp-) report in place of a missing folder', async () => {
    const dir = makeTempDir('recover-');
    const partial = report(join(dir, '.report.tmp-1-0000000a'), 'partial');
    await expect(recoverReportFolder(join(dir, 'report'))).resolves.toEqual({ removed: [partial] });
    expect(readdirSync(dir)).toEqual([]);
  });

  it('leaves an existing folder as it is and removes every leftover beside it, saying it restored nothing', async () => {
    const dir = makeTempDir('recover-');
    const out = report(join(dir, 'report'), 'current');
    const complete = report(join(dir, '.report.new-1-0000000a'), 'complete', 9_000_000);
    await expect(recoverReportFolder(out)).resolves.toEqual({ removed: [complete] });
    expect(label(out)).toBe('current');
    expect(readdirSync(dir)).toEqual(['report']);
  });

  it('answers that nothing was done when there is nothing to recover', async () => {
    const dir = makeTempDir('recover-');
    await expect(recoverReportFolder(join(dir, 'report'))).resolves.toEqual({ removed: [] });
  });

  it('recovers nothing, and does not fail, when the folder beside which leftovers would be does not exist', async () => {
    const dir = makeTempDir('recover-');
    await expect(recoverReportFolder(join(dir, 'missing', 'report'))).resolves.toEqual({ removed: [] });
  });

  it.each([
    ['another folder of the same name length', '.reqort.new-1-0000000a'],
    ['a stage name with something before it', '.report.xnew-1-0000000a'],
    ['a stage name with something after it', '.report.new-1-0000000a.bak'],
    ['an ID that is not ours', '.report.new-1-0000000G'],
  ])('never touches a marked folder named like a leftover but not one (%s)', async (_what, name) => {
    const dir = makeTempDir('recover-');
    const lookalike = report(join(dir, name), 'not a leftover');
    await expect(recoverReportFolder(join(dir, 'report'))).resolves.toEqual({ removed: [] });
    expect(label(lookalike)).toBe('not a leftover');
    expect(existsSync(join(dir, 'report'))).toBe(false);
  });

  it('never follows a symbolic link named like a leftover, even to a marked folder: it is neither restored nor removed', async () => {
    const dir = makeTempDir('recover-');
    const elsewhere = report(join(dir, 'elsewhere'), 'elsewhere');
    const link = join(dir, '.report.new-1-0000000a');
    symlinkSync(elsewhere, link);
    await expect(recoverReportFolder(join(dir, 'report'))).resolves.toEqual({ removed: [] });
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(label(elsewhere)).toBe('elsewhere');
  });
});

describe('recovering a mountpoint after a killed writer', () => {
  it('moves the files of a complete staging folder into place, removes a partial one, and says which it recovered', async () => {
    const mount = makeTempDir('mount-');
    const complete = report(join(mount, `${MOUNTPOINT_STAGING_PREFIX.new}1`), 'complete');
    const partial = report(join(mount, `${MOUNTPOINT_STAGING_PREFIX.tmp}2`), 'partial');
    const recovered = await recoverMountpointStaging(mount);
    expect(recovered.sort()).toEqual([complete, partial].sort());
    expect(readdirSync(mount).sort()).toEqual([REPORT_MARKER_FILE, 'label.txt']);
    expect(label(mount)).toBe('complete');
  });

  it('leaves a staging-named folder without our marker, and every other entry, where they are', async () => {
    const mount = makeTempDir('mount-');
    const foreign = join(mount, `${MOUNTPOINT_STAGING_PREFIX.new}1`);
    mkdirSync(foreign);
    writeFileSync(join(foreign, 'mine.txt'), 'mine');
    report(join(mount, 'other'), 'other');
    await expect(recoverMountpointStaging(mount)).resolves.toEqual([]);
    expect(readdirSync(mount).sort()).toEqual([`${MOUNTPOINT_STAGING_PREFIX.new}1`, 'other']);
    expect(readFileSync(join(foreign, 'mine.txt'), 'utf8')).toBe('mine');
  });

  it('moves the report marker last: a move that fails on a file leaves the marker where it was', async () => {
    const mount = makeTempDir('mount-');
    const staging = join(mount, 'staging');
    mkdirSync(staging);
    writeFileSync(join(staging, REPORT_MARKER_FILE), createReportMarker(['a.txt', 'b.txt']));
    writeFileSync(join(staging, 'a.txt'), 'a');
    writeFileSync(join(staging, 'b.txt'), 'b');
    // A folder with something in it where each file goes: every file's rename fails.
    for (const name of ['a.txt', 'b.txt']) mkdirSync(join(mount, name, 'in-the-way'), { recursive: true });
    await expect(moveStagedFiles(staging, mount)).rejects.toThrow();
    expect(existsSync(join(mount, REPORT_MARKER_FILE))).toBe(false);
    expect(existsSync(join(staging, REPORT_MARKER_FILE))).toBe(true);
  });
});
