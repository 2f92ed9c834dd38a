// Issue 11 items 4, 5, 9, 10, 15: every file someone else supplies is read bounded, as a regular
// file only, and a hostile case is refused at load. The tests run the built CLI (npm run build)
// as a process of its own, because on the old code several of them block a thread in open() forever or
// grow without bound: the guard is a kill after GUARD_MS, and the assertions are exit code and message.
// Tests that check the same kind of input share one process where the CLI reports them all at once
// (the hostile case files of one table, the two hostile verdict clients of one run).
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const FIXTURES = join(ROOT, 'test/fixtures/hostile');
const CLI = join(FIXTURES, 'report-max-rss.mjs');
// MEM_GUARD_MS shortens the guard to show the old code's hangs quickly; the default leaves room for a loaded machine.
const GUARD_MS = Number(process.env.MEM_GUARD_MS ?? 60_000);
const BASELINE_CASE = JSON.parse(readFileSync(join(ROOT, 'cases/application/baseline.json'), 'utf8')) as Record<string, unknown> & { exchanges: unknown[] };
const work = mkdtempSync(join(tmpdir(), 'mem-bounded-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Spawned {
  code: number | null;
  stdout: string;
  stderr: string;
  killed: boolean;
  maxRssMb: number | undefined;
}

// The CLI in its own process group, killed whole if it outlives the guard (the old code's hangs).
function runBuiltCli(args: string[], cwd = work): Promise<Spawned> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, CI: 'true', MCP_SCHEMAS_DIR: process.env.MCP_SCHEMAS_DIR ?? '/work/shared/mcp-spec' },
    });
    let stdout = '';
    let stderr = '';
    let killed = false;
    child.stdout.on('data', (chunk: Buffer) => void (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
    const guard = setTimeout(() => {
      killed = true;
      process.kill(-child.pid!, 'SIGKILL');
    }, GUARD_MS);
    child.on('close', (code) => {
      clearTimeout(guard);
      const rss = /MAXRSS_KB=(\d+)/.exec(stderr);
      done({ code, stdout, stderr, killed, maxRssMb: rss ? Number(rss[1]) / 1024 : undefined });
    });
  });
}

let tableCount = 0;
/** A new, empty cases folder (with its application/ subfolder). */
function makeTableDir(): string {
  const dir = join(work, `table-${++tableCount}`);
  mkdirSync(join(dir, 'application'), { recursive: true });
  return dir;
}

/** Writes the baseline case changed by `edit` to `file`, as `write` says (default: JSON text). */
function writeCase(file: string, edit: (document: Record<string, unknown> & { exchanges: unknown[] }) => void = () => {}, write?: (file: string, text: string) => void): void {
  const document = structuredClone(BASELINE_CASE);
  edit(document);
  // Compact, and deep values spliced in as text: JSON.stringify itself overflows at 10,000 levels.
  const text = JSON.stringify(document).replace(/"DEEP:(\d+)"/g, (_match, depth: string) => `${'['.repeat(Number(depth))}1${']'.repeat(Number(depth))}`);
  if (write) write(file, text);
  else writeFileSync(file, text);
}

/** A cases folder holding the baseline case changed by `edit`, written as `write` says (default: JSON text). */
function makeTable(edit?: (document: Record<string, unknown> & { exchanges: unknown[] }) => void, write?: (file: string, text: string) => void): { dir: string; file: string } {
  const dir = makeTableDir();
  const file = join(dir, 'application', 'baseline.json');
  writeCase(file, edit, write);
  return { dir, file };
}

const runArgs = (cases: string, ...more: string[]) => ['run', '--cases', cases, '--target', 'reference', '--mode', 'direct', '--no-schemas', '--quiet', ...more];

function expectRefusedAtLoad(run: Spawned, pattern: RegExp) {
  expect(run.killed, 'the CLI hung and was killed').toBe(false);
  expect(run.code, run.stderr).toBe(2);
  expect(run.stderr).toMatch(pattern);
  expect(run.stderr).toMatch(/nothing was run/);
  expect(run.stderr).not.toMatch(/\n\s+at /);
}

/** A placeholder makeTable replaces with `depth` nested arrays around 1. */
function nest(depth: number): string {
  return `DEEP:${depth}`;
}

describe('hostile case files are refused at load with exit 2, naming the file', () => {
  // One table holds every hostile file beside the valid baseline case, and one CLI process loads it:
  // the loader reports every problem of a table at once (runner/cases/load-cases.ts), so each test
  // below checks its own file's refusal in that run. A file that hung the old code (a FIFO) or grew
  // it without bound (/dev/zero) still stops the whole run, which the guard kills: every test fails.
  const dir = makeTableDir();
  const app = join(dir, 'application');
  let run: Spawned;
  let utf8Offset: number;
  beforeAll(async () => {
    writeCase(join(app, 'baseline.json'));
    const fifo = join(work, 'case-fifo');
    execFileSync('mkfifo', [fifo]);
    writeCase(join(app, 'fifo.json'), undefined, (file) => symlinkSync(fifo, file));
    writeCase(join(app, 'zero.json'), undefined, (file) => symlinkSync('/dev/zero', file));
    writeCase(join(app, 'over-cap.json'), (document) => (document['description'] = 'x'.repeat(4 * 1024 * 1024)));
    writeCase(join(app, 'bad-utf8.json'), undefined, (file, text) => {
      const bytes = Buffer.from(text.replace('"text":"ok"', '"text":"o#k"'));
      const offset = bytes.indexOf('o#k') + 1;
      bytes[offset] = 0xff;
      writeFileSync(file, bytes);
    });
    utf8Offset = readFileSync(join(app, 'bad-utf8.json')).indexOf(0xff);
    writeCase(join(app, 'deep-body.json'), (document) => {
      (document.exchanges[0] as { response: { body: unknown } }).response.body = { json: nest(10_000) };
    });
    writeCase(join(app, 'deep-arguments.json'), (document) => (document['tool'] = { name: 'echo', arguments: { deep: nest(2_000) } }));
    writeCase(join(app, 'many-exchanges.json'), (document) => {
      document.exchanges = Array.from({ length: 100 }, () => structuredClone(document.exchanges[0]));
    });
    symlinkSync('..', join(app, 'again'));
    symlinkSync('self.json', join(app, 'self.json'));
    run = await runBuiltCli(runArgs(dir));
  }, GUARD_MS + 10_000);

  test('a case file symlinked to a FIFO: "not a regular file", no hang', () => {
    expectRefusedAtLoad(run, /application\/fifo\.json: the case file is not a regular file \(it is a FIFO/);
  });

  test('a case file symlinked to /dev/zero: "not a regular file", no unbounded growth', () => {
    expectRefusedAtLoad(run, /application\/zero\.json: the case file is not a regular file \(it is a character device\)/);
    expect(run.maxRssMb).toBeLessThan(300);
  });

  test('a case file over the 4 MiB cap is refused unread, the cap named', () => {
    expectRefusedAtLoad(run, /application\/over-cap\.json: the case file is larger than the 4 MiB cap/);
  });

  test('invalid UTF-8 in a case file: refused with its byte offset, not silently replaced', () => {
    expectRefusedAtLoad(run, new RegExp(`application/bad-utf8\\.json: the case file is not valid UTF-8 \\(invalid byte 0xff at byte offset ${utf8Offset}\\)`));
  });

  test('a response body nested 10,000 deep: exit 2 at load with the JSON pointer', () => {
    // The top-level object is depth 1 and body.json depth 6: the first array past 64 is 59 levels into it.
    const pointer = `/exchanges/0/response/body/json${'/0'.repeat(59)}`;
    expectRefusedAtLoad(run, new RegExp(`application/deep-body\\.json at ${pointer}: nested more than 64 arrays/objects deep`));
  });

  test('tool.arguments nested 2,000 deep: exit 2 at load with the JSON pointer (not a harness error per cell)', () => {
    expectRefusedAtLoad(run, /application\/deep-arguments\.json at \/tool\/arguments\/deep(\/0){61}: nested more than 64/);
  });

  test('a case with 100 exchanges: exit 2 from the schema (at most 16)', () => {
    expectRefusedAtLoad(run, /application\/many-exchanges\.json at \/exchanges: .*16/);
  });

  test('a symlink loop in a cases folder is named as a loop, not as duplicate ids', () => {
    expectRefusedAtLoad(run, /application\/again: is a symlink loop/);
    expect(run.stderr).toMatch(/application\/self\.json: is a symlink loop/);
    // The valid baseline.json would be a duplicate id if the loop were followed.
    expect(run.stderr).not.toMatch(/duplicate id/);
  });
});

test('a glob through a symlink loop names the second path of the same file, not a duplicate id', { timeout: GUARD_MS + 10_000 }, async () => {
  const { dir } = makeTable();
  symlinkSync('..', join(dir, 'application', 'again'));
  const run = await runBuiltCli(runArgs(`${dir}/**/*.json`));
  expectRefusedAtLoad(run, /application\/again\/application\/baseline\.json: is the same file as table-\d+\/application\/baseline\.json, reached through a symbolic link/);
  expect(run.stderr).not.toMatch(/duplicate id/);
});

describe('hostile files named to other commands: exit 2 with a message, never a hang', () => {
  const fifo = join(work, 'input-fifo');
  test.each([
    ['validate FIFO', () => ['validate', fifo], /not a regular file \(it is a FIFO/],
    ['compare FIFO FIFO', () => ['compare', fifo, fifo], /not a regular file \(it is a FIFO/],
    ['merge FIFO', () => ['merge', fifo, '--out', join(work, 'merged')], /not a regular file \(it is a FIFO/],
    ['run --baseline FIFO', () => [...runArgs(join(ROOT, 'cases/application/baseline.json')), '--baseline', fifo], /baseline .*not a regular file \(it is a FIFO/],
    ['run --baseline /dev/zero', () => [...runArgs(join(ROOT, 'cases/application/baseline.json')), '--baseline', '/dev/zero'], /baseline \/dev\/zero: the baseline is not a regular file \(it is a character device\)/],
  ])('%s', { timeout: GUARD_MS + 10_000 }, async (_name, args, pattern) => {
    execFileSync('sh', ['-c', `[ -p '${fifo}' ] || mkfifo '${fifo}'`]);
    const run = await runBuiltCli(args());
    expect(run.killed, 'the CLI hung and was killed').toBe(false);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(pattern);
  });
});

const VERDICTS_OUT = join(work, 'out-verdicts');
let verdicts: Promise<Spawned> | undefined;
/** One run (one CLI process) with both hostile verdict clients as targets; its report folder also serves the verify test. */
function runVerdicts(): Promise<Spawned> {
  const targets = ['fifo-verdict.mjs', 'zero-verdict.mjs'].flatMap((fixture) => ['--target', `command:${JSON.stringify(process.execPath)} ${JSON.stringify(join(FIXTURES, fixture))} #versions=2026-07-28`]);
  verdicts ??= runBuiltCli(['run', '--case', 'baseline', ...targets, '--no-schemas', '--quiet', '--out', VERDICTS_OUT]);
  return verdicts;
}

describe('a hostile client verdict file is an error cell, and the run finishes with its reports', () => {
  // Both hostile clients are targets of one run (one CLI process): each judged cell is its own client's.
  const out = VERDICTS_OUT;
  let run: Spawned;
  beforeAll(async () => void (run = await runVerdicts()), GUARD_MS + 10_000);

  test.each([
    ['a FIFO nobody writes', 'fifo-verdict.mjs', /verdict file was refused: the verdict file is not a regular file \(it is a FIFO/],
    ['a symlink to /dev/zero', 'zero-verdict.mjs', /verdict file was refused: the verdict file is not a regular file \(it is a character device\)/],
  ])('the verdict file is %s', (_name, fixture, pattern) => {
    expect(run.killed, 'the run hung and was killed').toBe(false);
    expect(run.code, run.stderr).toBe(1);
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as { complete?: boolean; cells: { target: string; status: string; reason?: string }[] };
    const judged = results.cells.filter((cell) => cell.status !== 'skip' && cell.target.includes(fixture));
    expect(judged).toHaveLength(1);
    expect(judged[0]).toMatchObject({ status: 'error', reason: expect.stringMatching(pattern) });
    expect(run.maxRssMb).toBeLessThan(300);
  });
});

describe('a gzip bomb in a case body is a clear per-cell error with low peak RSS', () => {
  // 512 concatenated gzip members of 1 MiB of zeros each: ~0.5 MB on the wire, 512 MiB decoded.
  const member = gzipSync(Buffer.alloc(1024 * 1024), { level: 9 });
  const bomb = Buffer.concat(Array.from({ length: 512 }, () => member));
  const { dir } = makeTable((document) => {
    document['id'] = 'baseline';
    (document.exchanges[0] as { response: unknown }).response = {
      headers: { 'Content-Encoding': 'gzip' },
      contentType: 'application/json',
      body: { base64: bomb.toString('base64') },
    };
  });

  test.each(['direct', 'http'])('%s mode', { timeout: GUARD_MS + 10_000 }, async (mode) => {
    const out = join(work, `out-bomb-${mode}`);
    // A generous --timeout: the cap, not the clock, must end each cell (at load 18 the http cell ran out of the default 2 s).
    const run = await runBuiltCli(['run', '--cases', dir, '--target', 'reference', '--mode', mode, '--timeout', '20000', '--no-schemas', '--quiet', '--out', out]);
    expect(run.killed, 'the run hung and was killed').toBe(false);
    expect(run.code, run.stderr).toBe(1);
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as { cells: { status: string; reason?: string }[] };
    expect(results.cells.length).toBe(4); // one cell per protocol version of the case
    for (const cell of results.cells) {
      expect(cell).toMatchObject({ status: 'error', reason: expect.stringMatching(/^exchange 1: the gzip response body \(\d+ bytes\) decodes to more than the 16 MiB cap/) });
    }
    console.info(`gzip bomb (${bomb.length} bytes -> 512 MiB), ${mode} mode: peak RSS ${run.maxRssMb?.toFixed(0)} MB`);
    expect(run.maxRssMb).toBeLessThan(300);
  });
});

describe('verify on hostile receipts: exit 1 with a mismatch per entry, never a hang, nothing read outside the allowed folders', () => {
  test('receipts naming /dev/zero, /etc/hostname and a FIFO in the report folder; an unlisted file', { timeout: 2 * GUARD_MS + 10_000 }, async () => {
    // Any complete report folder will do: a copy of the verdict run's (a report folder verifies wherever it is).
    const made = await runVerdicts();
    expect(made.killed, 'the run hung and was killed').toBe(false);
    expect(made.code, made.stderr).toBe(1);
    const out = join(work, 'out-verify');
    cpSync(VERDICTS_OUT, out, { recursive: true });
    expect((await runBuiltCli(['verify', out])).stdout).toMatch(/^OK: /m);

    const receiptsPath = join(out, 'receipts.json');
    const receipts = JSON.parse(readFileSync(receiptsPath, 'utf8')) as { inputs: unknown[]; outputs: unknown[] };
    const zero = '0'.repeat(64);
    receipts.inputs.push({ kind: 'case', base: 'absolute', path: '/dev/zero', sha256: zero, bytes: 0 }, { kind: 'case', base: 'absolute', path: '/etc/hostname', sha256: zero, bytes: 0 });
    execFileSync('mkfifo', [join(out, 'pipe')]);
    receipts.outputs.push({ base: 'report', path: 'pipe', sha256: zero, bytes: 0 });
    writeFileSync(receiptsPath, `${JSON.stringify(receipts, null, 2)}\n`);
    writeFileSync(join(out, 'extra.txt'), 'added after the run');
    const run = await runBuiltCli(['verify', out]);
    expect(run.killed, 'verify hung and was killed').toBe(false);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toMatch(/MISMATCH \/dev\/zero: expected 0{64}, found outside the folders verify may read .*; not hashed/);
    expect(run.stdout).toMatch(/MISMATCH \/etc\/hostname: expected 0{64}, found outside the folders verify may read .*; not hashed/);
    expect(run.stdout).toMatch(/MISMATCH pipe: expected 0{64}, found the file is not a regular file \(it is a FIFO/);
    expect(run.stdout).toMatch(/MISMATCH extra\.txt: expected absent .*, found present, unlisted/);
    expect(run.stdout).toMatch(/MISMATCH receipts\.json: expected [0-9a-f]{64}/);
  });
});
