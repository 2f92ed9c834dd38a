import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { listCaseFiles } from './list-case-files.js';

const root = mkdtempSync(join(tmpdir(), 'mem-list-cases-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('listCaseFiles', () => {
  test('lists *.json under folders and followed links, skips dot entries, and names each symlink loop once', () => {
    const dir = join(root, 'table');
    mkdirSync(join(dir, 'application', 'nested'), { recursive: true });
    mkdirSync(join(dir, '.hidden'));
    mkdirSync(join(root, 'elsewhere'));
    writeFileSync(join(dir, 'application', 'a.json'), '{}');
    writeFileSync(join(dir, 'application', 'nested', 'b.json'), '{}');
    writeFileSync(join(dir, 'application', 'notes.txt'), '');
    writeFileSync(join(dir, '.hidden', 'c.json'), '{}');
    writeFileSync(join(root, 'elsewhere', 'd.json'), '{}');
    symlinkSync(join(root, 'elsewhere'), join(dir, 'linked'));
    symlinkSync('..', join(dir, 'application', 'up'));
    symlinkSync('loop.json', join(dir, 'application', 'loop.json'));
    const listing = listCaseFiles(dir);
    expect(listing.files.map((file) => file.slice(dir.length + 1))).toEqual(['application/a.json', 'application/nested/b.json', 'linked/d.json']);
    expect(listing.problems).toEqual([
      { path: join(dir, 'application', 'loop.json'), message: expect.stringMatching(/^is a symlink loop/) },
      { path: join(dir, 'application', 'up'), message: expect.stringMatching(/^is a symlink loop: it leads back to a folder that contains it/) },
    ]);
  });
});
