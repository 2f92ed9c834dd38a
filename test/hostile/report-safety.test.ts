import { XMLValidator } from 'fast-xml-parser';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { Parser } from 'tap-parser';
import { afterAll, describe, expect, test } from 'vitest';
import { renderReports } from '../../reports/index.js';
import { renderFull } from '../../reports/formats/index.js';
import { createReportMarker, REPORT_MARKER_FILE } from '../../reports/report-folder/index.js';
import { writeRunReports } from '../../reports/write-run-reports.js';
import { writeReportFolder } from '../../reports/report-folder/index.js';
import { loadCases } from '../../runner/cases/load-cases.js';
import { runMatrix } from '../../runner/run/run-matrix.js';
import { createClassifierTarget } from '../../runner/targets/classifier-target.js';
import type { Classifier, RunResult } from '../../runner/vocabulary/types.js';
import { HOSTILE, makeHostileRunResult, SECRETS } from '../make-run-result.js';
import { expandHtmlEvidence } from '../read-results.js';

const root = mkdtempSync(join(tmpdir(), 'mem-report-safety-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// Secrets in places the shared hostile result does not cover: the request URL, a response
// header, a client's stdout, a verdict detail.
const MORE_SECRETS = { urlToken: 'urlTOKENq8w7e6r5', stdoutKey: 'apiKEYstdoutz9x8c7', detailJwt: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4eXoifQ.c2lnbmF0dXJlMTIz' };

function makeResult(complete = true): RunResult {
  const result = makeHostileRunResult();
  const cell = result.cells[0]!;
  const exchange = cell.recording!.exchanges[0]!;
  exchange.request.path = `/mcp?access_token=${MORE_SECRETS.urlToken}`;
  exchange.request.headers['x-api-key'] = MORE_SECRETS.stdoutKey;
  exchange.response!.headers['www-authenticate'] = `Bearer realm="x", token=${MORE_SECRETS.urlToken}`;
  cell.targetRun = { ...cell.targetRun!, stdout: `${HOSTILE}\napi_key=${MORE_SECRETS.stdoutKey}\n{"outcome":"TOOL_SUCCESS","detail":"Bearer ${SECRETS.bearer}"}` };
  cell.actual = [{ outcome: 'TOOL_SUCCESS', layer: 'application', detail: `jwt ${MORE_SECRETS.detailJwt} ${HOSTILE}` }];
  return { ...result, complete };
}

const ALL_SECRETS = { ...SECRETS, ...MORE_SECRETS };

function readTree(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const bytes = readFileSync(join(entry.parentPath, entry.name));
    // results.full.json.gz is scanned as the text it holds, matrix.html with its evidence blocks unpacked.
    const text = (entry.name.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
    files.set(join(entry.parentPath, entry.name), entry.name.endsWith('.html') ? expandHtmlEvidence(text) : text);
  }
  return files;
}

describe('report safety: secrets', () => {
  test('no planted secret reaches any written file (every format, receipts, sums)', async () => {
    const out = join(root, 'secrets');
    await writeRunReports(out, makeResult(), { inputs: [], rootDir: root });
    const files = readTree(out);
    expect(files.size).toBeGreaterThanOrEqual(7);
    const leaks: string[] = [];
    for (const [file, text] of files) for (const [name, secret] of Object.entries(ALL_SECRETS)) if (text.includes(secret)) leaks.push(`${name} in ${file}`);
    expect(leaks).toEqual([]);
  });
});

describe('report safety: structure under hostile text', () => {
  const result = makeResult(false);
  const files = Object.fromEntries(renderReports(result).map((file) => [file.name, file.content]));

  test('HTML: no markup or script from the wire; only the template\'s own scripts', () => {
    const html = files['matrix.html']!;
    const clean = renderReports({ ...makeResult(false), cells: [], cases: [], targets: [] }).find((file) => file.name === 'matrix.html')!.content;
    const count = (text: string, pattern: RegExp) => (text.match(pattern) ?? []).length;
    expect(count(html, /<script\b/gi)).toBe(count(clean, /<script\b/gi));
    expect(html).not.toContain('<script>alert(1)');
    expect(html).not.toMatch(/<[a-z]+[^>]*\son\w+=/i);
    expect(html).toMatch(/incomplete|interrupted/i);
  });

  test('TAP: parses, one point per cell, hostile text cannot add points, and the bail-out is there', async () => {
    const tap = files['results.tap']!;
    const events: { name: string; args: unknown[] }[] = [];
    const parser = new Parser();
    const points: unknown[] = [];
    parser.on('assert', (point) => points.push(point));
    parser.on('bailout', (reason) => events.push({ name: 'bailout', args: [reason] }));
    const done = new Promise((resolve) => parser.on('complete', resolve));
    parser.end(tap);
    await done;
    // Top-level points: one per target. Subtest points are per cell; count them from the text.
    expect(tap.match(/^ {4}(?:not )?ok \d+ - /gm)?.length).toBe(result.cells.length);
    expect(tap.match(/^(?:not )?ok \d+ - /gm)?.length).toBe(result.targets.length);
    // Every line is TAP syntax: nothing from the wire starts a line of its own.
    // (The closing comments are one per target: its unexpected and known failures.)
    const stray = tap.split('\n').filter((line) => line !== '' && !/^(TAP version 14|1\.\.\d+|# Subtest: .*|(?:not )?ok \d+ - .*|Bail out! .*| {4}.*|# .*: \d+ unexpected(?:: .*)? · \d+ known(?:: .*)?)$/.test(line));
    expect(tap.match(/^# .*: \d+ unexpected/gm)?.length).toBe(result.targets.length);
    expect(stray).toEqual([]);
    expect(points.length).toBe(result.targets.length);
    expect(events.map((event) => event.name)).toContain('bailout');
  });

  test('JUnit: valid XML', () => {
    expect(XMLValidator.validate(files['results.junit.xml']!)).toBe(true);
  });

  test('Markdown: hostile text cannot add lines, headings or table columns', () => {
    const md = files['summary.md']!;
    expect(md).not.toMatch(/^second line/m);
    const rows = md.split('\n').filter((line) => line.startsWith('|'));
    const columns = (line: string) => line.replace(/\\\|/g, '').split('|').length;
    // Every table keeps its header's column count.
    let width = 0;
    for (const [index, line] of rows.entries()) {
      const previous = rows[index - 1];
      if (previous === undefined || !md.includes(`${previous}\n${line}`)) width = columns(line);
      expect(columns(line), line).toBe(width);
    }
  });

  test('results.json: parses back, marked incomplete', () => {
    expect(JSON.parse(files['results.json']!)).toMatchObject({ complete: false });
  });
});

describe('report safety: the report folder is replaced completely or not at all', () => {
  // An earlier report of ours: only a folder with the marker may be replaced.
  const seed = (dir: string) => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'old.txt'), 'old report');
    writeFileSync(join(dir, REPORT_MARKER_FILE), createReportMarker(['old.txt']));
  };
  const siblings = (dir: string) => readdirSync(join(dir, '..')).filter((name) => /\.(tmp|new|old)-|\.lock$/.test(name));

  test('a failure while writing leaves the old folder untouched and no staging folder behind', async () => {
    const out = join(root, 'fail-mid-write', 'report');
    seed(out);
    await expect(
      writeReportFolder(out, [{ name: 'a.txt', content: 'new' }], async () => {
        throw new Error('disk full (simulated)');
      }),
    ).rejects.toThrow(/disk full/);
    expect(readTree(out)).toEqual(new Map([[join(out, 'old.txt'), 'old report'], [join(out, REPORT_MARKER_FILE), createReportMarker(['old.txt'])]]));
    expect(siblings(out)).toEqual([]);
  });

  test('a failure at the final rename puts the old folder back', async () => {
    const out = join(root, 'fail-at-rename', 'report');
    seed(out);
    await expect(
      // The staging folder vanishes before the swap, so renaming it into place fails.
      writeReportFolder(out, [{ name: 'a.txt', content: 'new' }], async (staging) => {
        await rm(staging, { recursive: true, force: true });
        return [];
      }),
    ).rejects.toThrow();
    expect(existsSync(join(out, 'old.txt'))).toBe(true);
    expect(siblings(out)).toEqual([]);
  });

  test('a successful run replaces the folder as a whole', async () => {
    const out = join(root, 'replace', 'report');
    seed(out);
    await writeRunReports(out, makeResult(), { inputs: [], rootDir: root });
    expect(existsSync(join(out, 'old.txt'))).toBe(false);
    expect(existsSync(join(out, 'matrix.html'))).toBe(true);
    expect(siblings(out)).toEqual([]);
  });
});

// Issue 11 item 10: each of these ended a full run with "Maximum call stack size exceeded",
// exit 1 and no report. Now every report is written and parses.
describe('report safety: huge and hostile values still give every report', () => {
  // Reads back only the files a check reads: decoding every report of a 16 MB value again cost
  // about as much as parsing them.
  async function writeAndRead(name: string, result: RunResult): Promise<{ json: string }> {
    const out = join(root, name);
    await writeRunReports(out, result, { inputs: [], rootDir: root });
    const written = readdirSync(out, { withFileTypes: true, recursive: true });
    expect(written.every((entry) => entry.isFile())).toBe(true);
    expect(written.map((entry) => entry.name).sort()).toEqual(['.mcp-error-matrix-report', 'SHA256SUMS', 'matrix.html', 'receipts.json', 'results.full.json.gz', 'results.json', 'results.junit.xml', 'results.tap', 'summary.json', 'summary.md']);
    JSON.parse(readFileSync(join(out, 'results.json'), 'utf8'));
    // The wire and the checks' values are in the whole model, results.json's evidence file.
    const json = gunzipSync(readFileSync(join(out, 'results.full.json.gz'))).toString('utf8');
    JSON.parse(json);
    expect(XMLValidator.validate(readFileSync(join(out, 'results.junit.xml'), 'utf8'))).toBe(true);
    return { json };
  }

  test('a 6 MB raw body (base64-like, one run) is redacted and written', { timeout: 120_000 }, async () => {
    const result = makeResult();
    const secretInBody = 'api_key=ZZZZ9999secret';
    result.cells[0]!.recording!.exchanges[0]!.response!.body = `${'Qz9'.repeat(2 * 1024 * 1024)} ${secretInBody}`;
    const { json } = await writeAndRead('body-6mb', result);
    expect(json).not.toContain('ZZZZ9999secret');
  });

  test('a 10 MB verdict detail and a check value of 10 MB are written', { timeout: 120_000 }, async () => {
    const result = makeResult();
    result.cells[0]!.actual = [{ outcome: 'TOOL_SUCCESS', layer: 'application', detail: 'd'.repeat(10 * 1024 * 1024) }];
    result.cells[0]!.checks[0]!.actual = 'e'.repeat(10 * 1024 * 1024);
    await writeAndRead('detail-10mb', result);
  });

  // The 100 MB description can no longer reach a run from a case file (capped at 4 MiB at
  // load, runner/io/input-caps.ts); through the API, 16 MB is well past the 6 MB at which the old
  // redaction overflowed the stack, and redact.test.ts shows the scanners linear up to 32 MB.
  // (100 MB took 42 s and ~1.1 GB of one test worker for the same code path.)
  test('a 16 MB case description is written', { timeout: 120_000 }, async () => {
    const result = makeResult();
    result.cases[0] = { ...result.cases[0]!, description: 'A long description. '.repeat(800 * 1024) };
    await writeAndRead('description-16mb', result);
  });
});

// A classifier fixture whose answers JSON.stringify (or a property read) throws on, or that are
// huge: each cell is judged (the answer is "not a verdict", or the detail is cut), never a crash.
describe('report safety: hostile classifier answers', () => {
  const cyclic = (): unknown => {
    const answer: Record<string, unknown> = { outcome: 'TOOL_SUCCESS', layer: 'nowhere' };
    answer['self'] = answer;
    return answer;
  };
  const answers: Record<string, () => unknown> = {
    cyclic,
    bigint: () => ({ outcome: 'HTTP_ERROR', status: 503n }),
    'throwing-toJSON': () => ({ outcome: { toJSON: () => { throw new Error('toJSON says no'); } } }),
    'throwing-getter': () => Object.defineProperty({}, 'outcome', { enumerable: true, get: () => { throw new Error('getter says no'); } }),
    'huge-detail': () => ({ outcome: 'TOOL_SUCCESS', detail: `${'d'.repeat(10 * 1024 * 1024)} tail` }),
    'deep-invalid': () => {
      let deep: unknown = 'bottom';
      for (let i = 0; i < 50_000; i++) deep = [deep];
      return { outcome: deep };
    },
  };

  test('every answer gives a judged cell and every report is written', { timeout: 120_000 }, async () => {
    const cases = (await loadCases()).filter((loaded) => ['baseline', 'http-503-then-200'].includes(loaded.case.id));
    expect(cases.length).toBe(2);
    const targets = Object.entries(answers).map(([name, answer]) => createClassifierTarget({ name, kind: 'classifier' }, (() => answer()) as Classifier));
    const result = await runMatrix({ cases, targets, mode: 'direct', versions: ['2025-11-25'], checkSchemas: null, checkRequest: null });
    const byTarget = new Map(result.cells.map((cell) => [cell.target, cell]));
    for (const name of Object.keys(answers)) expect(byTarget.get(name)?.status, name).not.toBe('error');
    const out = join(root, 'hostile-classifiers');
    await writeRunReports(out, result, { inputs: [], rootDir: root });
    expect(readFileSync(join(out, 'results.json'), 'utf8').length).toBeLessThan(2 * 1024 * 1024);
    const json = gunzipSync(readFileSync(join(out, 'results.full.json.gz'))).toString('utf8');
    expect(json.length).toBeLessThan(2 * 1024 * 1024);
    const published = JSON.parse(json) as RunResult;
    const problems = published.cells.flatMap((cell) => cell.checks.filter((check) => !check.passed).map((check) => `${cell.target}: ${check.message}`));
    expect(problems.join('\n')).toMatch(/cyclic|circular|layer must be one of/);
    expect(problems.join('\n')).toMatch(/bigint: .*BigInt 503/i);
    expect(problems.join('\n')).toMatch(/throwing-toJSON: .*toJSON threw/);
    expect(problems.join('\n')).toMatch(/throwing-getter: .*could not be read/);
    const detail = published.cells.find((cell) => cell.target === 'huge-detail')!.actual[0]!.detail!;
    expect(detail).toMatch(/… \[truncated: \d+ more characters\]$/);
  });
});

// Issue 12 item 11: redaction hides credentials, not content. A case title and a 401 challenge
// stay readable in every format; the credentials beside them do not.
describe('report safety: credentials redacted, challenges, titles and URLs kept', () => {
  const TITLE = 'HTTP 401 with a WWW-Authenticate Bearer challenge';
  const METADATA = 'http://127.0.0.1:4321/.well-known/oauth-protected-resource';
  const CHALLENGE = `Bearer resource_metadata="${METADATA}", scope="tools:call"`;
  const CREDENTIALS = { jwt: 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJlX3Rlc3Q', cookie: 'ckVALUEq1w2e3r4', ghp: 'ghp_16C7e42F292c6912E7710c838347Ae178B4a' };

  function makeChallengeResult(): RunResult {
    const result = makeResult();
    result.cases[0] = { ...result.cases[0]!, title: TITLE };
    const exchange = result.cells[0]!.recording!.exchanges[0]!;
    exchange.request.headers = { ...exchange.request.headers, authorization: `Bearer ${CREDENTIALS.jwt}`, cookie: `session=${CREDENTIALS.cookie}` };
    exchange.response = { ...exchange.response!, status: 401, headers: { 'www-authenticate': CHALLENGE } };
    result.cells[0]!.reason = `401 ${CHALLENGE}`;
    result.cells[0]!.targetRun = { ...result.cells[0]!.targetRun!, stderr: `GET ${METADATA}\nusing token ${CREDENTIALS.ghp}\nSet-Cookie: sid=${CREDENTIALS.cookie}\n` };
    return result;
  }

  test('every format keeps the title, the challenge and its URL, and hides every credential', () => {
    // Every text format, and the whole model results.full.json.gz holds, decompressed.
    const files = [...renderReports(makeChallengeResult()), { name: 'results.full.json.gz', content: renderFull(makeChallengeResult()) }].map((file) => (file.name === 'matrix.html' ? { ...file, content: expandHtmlEvidence(file.content) } : file));
    const leaks: string[] = [];
    for (const file of files) for (const [name, secret] of Object.entries(CREDENTIALS)) if (file.content.includes(secret)) leaks.push(`${name} in ${file.name}`);
    expect(leaks).toEqual([]);
    const byName = Object.fromEntries(files.map((file) => [file.name, file.content]));
    expect((JSON.parse(byName['results.json']!) as RunResult).cells[0]!.reason).toBe(`401 ${CHALLENGE}`);
    const json = JSON.parse(byName['results.full.json.gz']!) as RunResult;
    expect(json.cells[0]!.recording!.exchanges[0]!.response!.headers['www-authenticate']).toBe(CHALLENGE);
    expect(json.cells[0]!.reason).toBe(`401 ${CHALLENGE}`);
    expect(json.cells[0]!.targetRun!.stderr).toContain(`GET ${METADATA}`);
    expect(byName['matrix.html']).toContain('WWW-Authenticate Bearer challenge');
    expect(byName['matrix.html']).toContain('resource_metadata=\\"http://127.0.0.1:4321/.well-known/oauth-protected-resource\\"');
    expect(byName['results.tap']).toContain(`reason: 401 ${CHALLENGE}`);
    expect(byName['results.junit.xml']).toContain('WWW-Authenticate Bearer challenge');
  });
});
