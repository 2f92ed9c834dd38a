import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { packagePath } from '../util/package-paths.js';
import { CaseTableError } from './case-errors.js';
import { CHECKED_CASES_FILE, writeCheckedBundledCases } from './checked-cases.js';
import { loadCases, loadCasesSync } from './load-cases.js';
import { useTempDirs } from '../../test/temp-dirs.js';

const makeTempDir = useTempDirs();

const baseline = JSON.parse(readFileSync(packagePath('cases/application/baseline.json'), 'utf8')) as Record<string, unknown>;

function writeTable(files: Record<string, string | object>): string {
  const root = makeTempDir('mem-cases-');
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  }
  return root;
}

async function problemsOf(files: Record<string, string | object>): Promise<string> {
  const root = writeTable(files);
  try {
    await loadCases({ sources: [root], cwd: root });
  } catch (error) {
    expect(error).toBeInstanceOf(CaseTableError);
    expect((error as CaseTableError).exitCode).toBe(2);
    return (error as Error).message;
  }
  throw new Error('expected the table to be refused');
}

/** The baseline case (TOOL_SUCCESS under 2025-11-25 and 2026-07-28) with a server fault on its only exchange. */
function withServerFault(serverFault: Record<string, unknown>): Record<string, unknown> {
  const exchanges = baseline.exchanges as Record<string, unknown>[];
  return { ...baseline, versions: ['2025-11-25', '2026-07-28'], exchanges: [{ ...exchanges[0], expect: { outcome: 'INVALID_ENVELOPE' }, serverFault }] };
}
const fault = { rule: 'a server must not send that', ref: 'SH26 § Receiving Messages', result: { outcome: 'TOOL_SUCCESS' } };

/** The baseline case with one alternative on its only exchange. */
function withAlternative(alternative: Record<string, unknown>): Record<string, unknown> {
  const exchanges = baseline.exchanges as Record<string, unknown>[];
  return { ...baseline, exchanges: [{ ...exchanges[0], alternatives: [alternative] }] };
}

describe('loadCases', () => {
  test('loads the shipped table, sorted by id, with file digests', async () => {
    const cases = await loadCases();
    expect(cases.length).toBeGreaterThanOrEqual(11);
    expect(cases.map((c) => c.case.id)).toEqual([...cases.map((c) => c.case.id)].sort((a, b) => a.localeCompare(b, 'en')));
    for (const item of cases) expect(item.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  test('a folder is read as the glob would: dot entries skipped, symbolic links followed', async () => {
    const root = writeTable({ 'application/baseline.json': baseline, '.drafts/application/baseline.json': '{', 'application/.old.json': '{' });
    expect((await loadCases({ sources: [root], cwd: root })).map((c) => c.case.id)).toEqual(['baseline']);
    const linked = makeTempDir('mem-cases-link-');
    symlinkSync(join(root, 'application'), join(linked, 'application'), 'dir');
    expect((await loadCases({ sources: [linked], cwd: linked })).map((c) => c.case.id)).toEqual(['baseline']);
  });

  test.each([
    ['bad JSON', { 'application/baseline.json': '{ "id": "baseline", ' }, /application\/baseline\.json: is not valid JSON/],
    ['an unknown field', { 'application/baseline.json': { ...baseline, titel: 'x' } }, /application\/baseline\.json at \/titel: unknown field "titel" \(did you mean "title"\?\)/],
    ['a wrong type', { 'application/baseline.json': { ...baseline, versions: '2025-11-25' } }, /at \/versions: expected array, found string "2025-11-25"/],
    ['a missing field', { 'application/baseline.json': { ...baseline, title: undefined } }, /at \/title: missing required field "title"/],
    ['a bad enum value', { 'application/baseline.json': { ...baseline, origin: 'artcle' } }, /at \/origin: expected one of "article", "spec", "extra", found string "artcle" \(did you mean "article"\?\)/],
    ['an id that differs from the file name', { 'application/other.json': baseline }, /application\/other\.json at \/id: id "baseline" must equal the file name "other"/],
    ['a layer that differs from the folder', { 'transport/baseline.json': baseline }, /transport\/baseline\.json at \/layer: layer "application" must equal the folder "transport"/],
    ['a nested wrong type', { 'application/baseline.json': { ...baseline, exchanges: [{ response: { status: '200' }, expect: { outcome: 'TOOL_SUCCESS' } }] } }, /at \/exchanges\/0\/response\/status: expected integer, found string "200"/],
    ['an expectation for a version the case does not cover', { 'application/baseline.json': { ...baseline, versions: ['2025-11-25'], exchanges: [{ response: {}, expect: { outcome: 'TOOL_SUCCESS' }, expectByVersion: { '2026-07-28': { outcome: 'TOOL_ERROR' } } }] } }, /at \/exchanges\/0\/expectByVersion\/2026-07-28: version 2026-07-28 is not in \/versions/],
    ['an alternative without a spec reference', { 'application/baseline.json': withAlternative({ outcome: 'STREAM_INCOMPLETE', level: 'SHOULD', why: 'the spec leaves it open' }) }, /at \/exchanges\/0\/alternatives\/0\/spec: missing required field "spec"/],
    ['an alternative with an empty reference list', { 'application/baseline.json': withAlternative({ outcome: 'STREAM_INCOMPLETE', level: 'SHOULD', spec: [], why: 'the spec leaves it open' }) }, /at \/exchanges\/0\/alternatives\/0\/spec/],
    ['an alternative at MUST', { 'application/baseline.json': withAlternative({ outcome: 'STREAM_INCOMPLETE', level: 'MUST', spec: [{ ref: 'L25 § Timeouts' }], why: 'the spec leaves it open' }) }, /at \/exchanges\/0\/alternatives\/0\/level: expected one of "SHOULD", "POLICY", "INFO"/],
    ['an alternative that is the expectation', { 'application/baseline.json': withAlternative({ outcome: 'TOOL_SUCCESS', level: 'SHOULD', spec: [{ ref: 'L25 § Timeouts' }], why: 'the spec leaves it open' }) }, /at \/exchanges\/0\/alternatives\/0: the alternative TOOL_SUCCESS is what the exchange expects/],
    ['a server fault without its rule', { 'application/baseline.json': withServerFault({ ref: 'SH26 § Receiving Messages', result: { outcome: 'TOOL_SUCCESS' } }) }, /at \/exchanges\/0\/serverFault\/rule: missing required field "rule"/],
    ['a server fault in a version the case does not cover', { 'application/baseline.json': withServerFault({ ...fault, versions: ['2025-03-26'] }) }, /at \/exchanges\/0\/serverFault\/versions: version 2025-03-26 is not in \/versions/],
    ['a server fault whose result is what the exchange expects', { 'application/baseline.json': withServerFault({ ...fault, result: { outcome: 'INVALID_ENVELOPE' } }) }, /at \/exchanges\/0\/serverFault\/result: INVALID_ENVELOPE is what the exchange expects under 2025-11-25/],
  ])('refuses %s, naming the file and the JSON pointer', async (_name, files, message) => {
    expect(await problemsOf(files)).toMatch(message);
  });

  test('refuses a resumeOnly event that nothing can replay', async () => {
    const sse = { events: [{ data: { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } } }, { resumeOnly: true, response: true, data: { jsonrpc: '2.0', result: { content: [] } } }] };
    const message = await problemsOf({ 'application/baseline.json': { ...baseline, exchanges: [{ response: { body: { sse } }, expect: { outcome: 'STREAM_INCOMPLETE' } }] } });
    expect(message).toMatch(/at \/exchanges\/0\/response\/body\/sse\/events\/1\/resumeOnly: resumeOnly events need "server": \{ "get": "resume" \}/);
    expect(message).toMatch(/an earlier event of this stream must carry an "id"/);
  });

  test('refuses duplicate ids across case roots and names both files', async () => {
    const first = writeTable({ 'application/baseline.json': baseline });
    const second = writeTable({ 'application/baseline.json': baseline });
    const loading = loadCases({ sources: [first, second], cwd: first });
    await expect(loading).rejects.toThrow(CaseTableError);
    await expect(loading).rejects.toThrow(/at \/id: duplicate id "baseline", already used by application\/baseline\.json/);
  });

  test('reports every broken file at once, not only the first', async () => {
    const message = await problemsOf({
      'application/baseline.json': { ...baseline, title: 1 },
      'application/other.json': '[',
    });
    expect(message).toMatch(/2 problems/);
  });

  test('refuses a source that matches no files', async () => {
    const root = writeTable({});
    await expect(loadCases({ sources: [join(root, 'nothing-*.json')], cwd: root })).rejects.toThrow(/no case files/);
  });
});

describe('loadCases from the build list of the bundled table', () => {
  /** A bundled table of one case and a folder standing for dist/runner/cases with its list (texts recorded). */
  function buildBundled(): { root: string; checkedDir: string } {
    const root = writeTable({ 'application/baseline.json': baseline });
    const checkedDir = makeTempDir('mem-checked-');
    for (const name of ['load-cases.js', 'case-rules.js', 'find-deep-nesting.js', 'case-guard.js', 'case-validator.generated.cjs']) writeFileSync(join(checkedDir, name), `// ${name}\n`);
    writeCheckedBundledCases(loadCasesSync({ sources: [root], checkAll: true }), checkedDir, 0);
    return { root, checkedDir };
  }

  test('an unchanged bundled file is taken from the list: its text, its SHA-256', () => {
    const bundled = buildBundled();
    // The list is the build's: a list whose (consistent) text differs from the disk shows which one was read.
    const listFile = join(bundled.checkedDir, CHECKED_CASES_FILE);
    const list = JSON.parse(readFileSync(listFile, 'utf8')) as { files: Record<string, string>; texts: Record<string, { text: string }> };
    const text = JSON.stringify({ ...baseline, title: 'from the list' });
    list.texts['application/baseline.json']!.text = text;
    list.files['application/baseline.json'] = createHash('sha256').update(text).digest('hex');
    writeFileSync(listFile, JSON.stringify(list));
    const [loaded] = loadCasesSync({ sources: [bundled.root], cwd: bundled.root, bundled });
    expect(loaded!.case.title).toBe('from the list');
    expect(loaded!.sha256).toBe(list.files['application/baseline.json']);
    expect(Object.isFrozen(loaded!.case.exchanges[0])).toBe(true);
  });

  test('an edited bundled file is read from disk and validated in full', () => {
    const bundled = buildBundled();
    const file = join(bundled.root, 'application/baseline.json');
    writeFileSync(`${file}.new`, JSON.stringify({ ...baseline, titel: 'x' }));
    renameSync(`${file}.new`, file);
    expect(() => loadCasesSync({ sources: [bundled.root], cwd: bundled.root, bundled })).toThrow(/unknown field "titel"/);
    writeFileSync(file, JSON.stringify({ ...baseline, title: 'edited' }));
    const [loaded] = loadCasesSync({ sources: [bundled.root], cwd: bundled.root, bundled });
    expect(loaded!.case.title).toBe('edited');
    expect(loaded!.sha256).toBe(createHash('sha256').update(readFileSync(file)).digest('hex'));
  });
});
