// File-system errors while writing the report folder (issue 11, item 3): ENOSPC, EACCES, EBUSY…
// are a clear OutputFolderError (exit 2) naming the path and the cause, never an "internal
// error", and the old report stays in place. Tests run as root, where chmod stops nothing, so
// the errors are injected into node:fs/promises.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { OutputFolderError } from '../../runner/util/errors.js';
import { runCli } from '../../test/run-cli.js';
import { writeReportFolder } from './write.js';

interface Fault {
  op: 'mkdir' | 'rename' | 'open' | 'write' | 'access';
  match: RegExp;
  code: string;
}

const faults = vi.hoisted(() => ({ current: undefined as Fault | undefined }));

vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  const failIf = (op: Fault['op'], path: unknown) => {
    const fault = faults.current;
    if (fault?.op === op && fault.match.test(String(path))) {
      throw Object.assign(new Error(`${fault.code}: simulated, ${op} '${String(path)}'`), { code: fault.code, syscall: op, path: String(path) });
    }
  };
  const wrap =
    <A extends unknown[], R>(op: Fault['op'], fn: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      failIf(op, args[0]);
      return fn(...args);
    };
  const open: typeof actual.open = async (path, ...rest) => {
    failIf('open', path);
    const handle = await actual.open(path, ...rest);
    if (faults.current?.op === 'write' && faults.current.match.test(String(path))) {
      handle.write = (async () => failIf('write', path)) as unknown as typeof handle.write;
    }
    return handle;
  };
  const patched = { ...actual, mkdir: wrap('mkdir', actual.mkdir), rename: wrap('rename', actual.rename), writeFile: wrap('open', actual.writeFile), access: wrap('access', actual.access), open };
  return { ...patched, default: patched };
});

// The lock's draft is written synchronously (folder-lock.ts): its creation fails the same way.
vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs')>();
  const writeFileSync: typeof actual.writeFileSync = (path, ...rest) => {
    const fault = faults.current;
    if (fault?.op === 'open' && fault.match.test(String(path))) {
      throw Object.assign(new Error(`${fault.code}: simulated, open '${String(path)}'`), { code: fault.code, syscall: 'open', path: String(path) });
    }
    return actual.writeFileSync(path, ...rest);
  };
  const patched = { ...actual, writeFileSync };
  return { ...patched, default: patched };
});

const root = mkdtempSync(join(tmpdir(), 'mem-write-errors-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
afterEach(() => void (faults.current = undefined));
beforeAll(async () => void (await import('../../runner/commands/run-command.js')), 120_000);

const write = (out: string, label: string) => writeReportFolder(out, [{ name: 'results.json', content: label }]);

describe('a file-system error while writing is a clear error, and the old report stays', () => {
  test.each([
    ['ENOSPC while writing a file', { op: 'write', match: /\.report\.tmp-.*results\.json$/, code: 'ENOSPC' }, /no space left on the device.*\[ENOSPC\] \(write .*results\.json\)/],
    ['EACCES creating the staging folder', { op: 'mkdir', match: /\.report\.tmp-/, code: 'EACCES' }, /permission denied.*\[EACCES\] \(mkdir .*\.report\.tmp-/],
    ['EBUSY moving the old folder aside', { op: 'rename', match: /\/report$/, code: 'EBUSY' }, /busy.*\[EBUSY\] \(rename .*report\)/],
    ['EROFS creating the lock', { op: 'open', match: /\.report\.lock\./, code: 'EROFS' }, /read-only.*\[EROFS\]/],
  ] as const)('%s', async (_title, fault, message) => {
    const out = join(root, fault.code, 'report');
    mkdirSync(join(out, '..'));
    await write(out, 'old');
    faults.current = fault;
    const error: unknown = await write(out, 'new').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OutputFolderError);
    expect((error as OutputFolderError).code).toBe('MEM_OUT_UNWRITABLE');
    expect((error as OutputFolderError).exitCode).toBe(2);
    expect((error as Error).message).toMatch(new RegExp(`^--out "${out}": cannot write the report: `));
    expect((error as Error).message).toMatch(message);
    expect(readFileSync(join(out, 'results.json'), 'utf8')).toBe('old');
    expect(readdirSync(join(out, '..'))).toEqual(['report']);
  });

  test('an error of finalize (reading an input for the receipts) is not blamed on the folder', async () => {
    const out = join(root, 'finalize', 'report');
    const missing = Object.assign(new Error("ENOENT: no such file or directory, open '/gone/case.json'"), { code: 'ENOENT', syscall: 'open', path: '/gone/case.json' });
    const error: unknown = await writeReportFolder(out, [{ name: 'results.json', content: 'x' }], () => Promise.reject(missing)).catch((caught: unknown) => caught);
    expect(error).toBe(missing);
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(join(out, '..'))).toEqual([]);
  });

  test('the CLI exits 2 with the message, not "internal error"', async () => {
    const out = join(root, 'cli', 'report');
    faults.current = { op: 'write', match: /\.report\.tmp-.*matrix\.html$/, code: 'ENOSPC' };
    const result = await runCli(['run', '--target', 'naive', '--case', 'content-not-array', '--mode', 'direct', '--no-schemas', '--no-baseline', '--quiet', '--out', out], { cwd: root });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^mcp-error-matrix run: --out ".*report": cannot write the report: no space left on the device; free some space or choose another --out \[ENOSPC\] \(write .*matrix\.html\)\n$/);
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(join(out, '..'))).toEqual([]);
  });
});

// Issue 28 item 7: a read-only --out was found only after every cell had run (and the run was lost).
describe('a report folder that cannot be written is found before the first cell', () => {
  test.each([
    ['the parent is read-only (the lock cannot be created)', { op: 'open', match: /\.report\.lock\./, code: 'EROFS' }, false],
    ['the folder itself is read-only (a read-only mount)', { op: 'access', match: /\/report$/, code: 'EROFS' }, true],
  ] as const)('%s: exit 2 naming it, no cell run, nothing left behind', async (_title, fault, exists) => {
    const out = join(root, `ro-${fault.op}`, 'report');
    mkdirSync(exists ? out : join(out, '..'), { recursive: true });
    faults.current = fault;
    const result = await runCli(['run', '--target', 'naive', '--case', 'content-not-array', '--mode', 'direct', '--no-schemas', '--no-baseline', '--quiet', '--out', out], { cwd: root });
    expect(result.code).toBe(2);
    // No TAP: the run never started.
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(new RegExp(`^mcp-error-matrix run: --out ".*report": cannot write the report: the file system is read-only; choose a writable folder \\[EROFS\\]`));
    expect(readdirSync(join(out, '..'))).toEqual(exists ? ['report'] : []);
  });
});
