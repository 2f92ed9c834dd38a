// The --out emptiness rule (issue 29 item 2): a folder is empty only when it holds nothing at all.
// A folder holding only dotfiles (a `.git/`, an `.env`) is someone's data: replacing it as "empty"
// would delete it.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { OutputFolderError } from '../../runner/util/errors.js';
import { checkReportFolder } from './check-report-folder.js';

const root = mkdtempSync(join(tmpdir(), 'mem-out-rules-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const options = { cwd: root, home: join(root, 'home') };

describe('a folder holding only dotfiles is not empty', () => {
  it.each([
    ['.env', (dir: string) => writeFileSync(join(dir, '.env'), 'TOKEN=secret\n')],
    ['.git', (dir: string) => mkdirSync(join(dir, '.git', 'objects'), { recursive: true })],
    ['.DS_Store', (dir: string) => writeFileSync(join(dir, '.DS_Store'), '')],
  ])('refuses a folder whose only entry is %s, naming it, and leaves it in place', async (name, plant) => {
    const dir = join(root, `only${name}`);
    mkdirSync(dir);
    plant(dir);
    const check = checkReportFolder(dir, options);
    await expect(check).rejects.toThrow(OutputFolderError);
    await expect(check).rejects.toThrow(name);
    expect(readdirSync(dir)).toEqual([name]);
  });

  it('takes a folder with no entry at all as empty', async () => {
    const dir = join(root, 'empty');
    mkdirSync(dir);
    await expect(checkReportFolder(dir, options)).resolves.toMatchObject({ state: 'empty' });
  });
});
