// The rules of reading a baseline, stated one at a time: the file is read bounded and refused
// with a message naming it (missing, a folder, too large, not UTF-8), its fingerprint is of its
// bytes, and every entry field is checked with the file, line and entry named.
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASELINE_FILE_MAX_BYTES } from '../io/input-caps.js';
import { BASELINE_FORMAT, BaselineError, describeEntryLocation, loadBaselineFile, parseBaselineText } from './load-baseline.js';

describe('loadBaselineFile: a bounded read of a regular file, refused by name', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mem-load-baseline-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const refusal = async (path: string, shownAs?: string): Promise<BaselineError> => {
    const error: unknown = await loadBaselineFile(path, shownAs).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(BaselineError);
    expect((error as BaselineError).code).toBe('MEM_BASELINE');
    return error as BaselineError;
  };

  it('a missing file says how to create one, under the name shown', async () => {
    const error = await refusal(join(dir, 'absent.yaml'), 'known.yaml');
    expect(error.message).toBe('baseline known.yaml: no such file; create it with `run --write-baseline FILE`');
  });

  it('a folder is not a regular file; the path is the name shown by default', async () => {
    const folder = join(dir, 'folder.yaml');
    await mkdir(folder);
    expect((await refusal(folder)).message).toBe(`baseline ${folder}: the baseline is not a regular file (it is a folder); give a regular file`);
  });

  it('a file over the baseline cap is refused unread', async () => {
    const huge = join(dir, 'huge.yaml');
    await writeFile(huge, '');
    await truncate(huge, BASELINE_FILE_MAX_BYTES + 1);
    expect((await refusal(huge, 'huge.yaml')).message).toBe(`baseline huge.yaml: the baseline is larger than the 16 MiB cap (${BASELINE_FILE_MAX_BYTES + 1} bytes)`);
  });

  it('bytes that are not UTF-8 are refused with their offset', async () => {
    const latin1 = join(dir, 'latin1.yaml');
    await writeFile(latin1, Buffer.from([0x2d, 0x20, 0xe9, 0x0a]));
    expect((await refusal(latin1, 'latin1.yaml')).message).toMatch(/^baseline latin1\.yaml: the baseline is not valid UTF-8 \(invalid byte 0xe9 at byte offset 2\)/);
  });

  it('reads the entries under the name shown; the fingerprint is of the bytes on disk, byte-order mark included', async () => {
    const path = join(dir, 'bom.yaml');
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('- { target: naive, case: x, reason: r }\n')]);
    await writeFile(path, bytes);
    const baseline = await loadBaselineFile(path, 'shown.yaml');
    expect(baseline).toEqual({ file: 'shown.yaml', sha256: createHash('sha256').update(bytes).digest('hex'), entries: [{ target: 'naive', case: 'x', reason: 'r', index: 1, line: 1 }] });
  });
});

describe('parseBaselineText: the document', () => {
  const parse = (text: string) => parseBaselineText(text, 'b.yaml');
  const problem = (text: string): string => {
    try {
      parse(text);
    } catch (error) {
      expect(error).toBeInstanceOf(BaselineError);
      return (error as Error).message;
    }
    throw new Error('parsed without an error');
  };

  it.each(['', '# only a comment\n', 'null\n', '~\n'])('an empty document (%j) has no entries', (text) => {
    expect(parse(text)).toEqual({ file: 'b.yaml', entries: [] });
  });

  it('accepts its own format name, an empty entries list, and an object with format alone', () => {
    expect(parse(`format: ${BASELINE_FORMAT}\nentries: []\n`)).toEqual({ file: 'b.yaml', entries: [] });
    expect(BASELINE_FORMAT).toBe('mcp-error-matrix/baseline@1');
    expect(problem(`format: ${BASELINE_FORMAT}\n`)).toBe('baseline b.yaml: expected a list of entries, or an object with an "entries" list');
  });

  it('refuses another format, naming both', () => {
    expect(problem('format: mcp-error-matrix/baseline@2\nentries: []\n')).toBe('baseline b.yaml: format "mcp-error-matrix/baseline@2" is not supported; expected "mcp-error-matrix/baseline@1"');
  });

  it('refuses an unknown top-level field even beside valid ones', () => {
    expect(problem('entries: []\nformat: mcp-error-matrix/baseline@1\nnotes: x\n')).toBe('baseline b.yaml: unknown top-level field "notes"; expected "entries" (and optionally "format")');
  });

  it('refuses entries that are not a list', () => {
    expect(problem('entries: { target: naive }\n')).toBe('baseline b.yaml: expected a list of entries, or an object with an "entries" list');
  });

  it('names the line of a YAML error', () => {
    expect(problem('entries:\n  - { target: naive,\n      case: x, reason: r }\n  - target: naive\n    target: naive\n')).toBe('baseline b.yaml: not valid YAML or JSON at line 5: Map keys must be unique');
    expect(problem('a: 1\na: 2\n')).toBe('baseline b.yaml: not valid YAML or JSON at line 2: Map keys must be unique');
  });

  it('gives each entry its 1-based index and line, in a list under entries and in a bare list', () => {
    const text = `format: ${BASELINE_FORMAT}\nentries:\n\n  - { target: a, case: x, reason: r }\n  - target: b\n    case: y\n    reason: s\n`;
    expect(parse(text).entries.map((entry) => [entry.index, entry.line])).toEqual([
      [1, 4],
      [2, 5],
    ]);
    expect(parse('\n\n- { target: a, case: x, reason: r }\n').entries).toEqual([{ target: 'a', case: 'x', reason: 'r', index: 1, line: 3 }]);
  });
});

describe('parseBaselineText: documents built to exhaust the reader (issue 28 item 7)', () => {
  // A billion-laughs document: each level aliases the one before nine times (9^9 ≈ 387 million leaves).
  const laughs = ['a0: &a0 [lol]', ...Array.from({ length: 9 }, (_, level) => `a${level + 1}: &a${level + 1} [${Array(9).fill(`*a${level}`).join(', ')}]`), 'entries: *a9'].join('\n');

  it('refuses a billion-laughs document by the file name, with a reason, never the parser\'s own error', () => {
    let caught: unknown;
    try {
      parseBaselineText(laughs, 'laughs.yaml');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(BaselineError);
    expect((caught as Error).message).toMatch(/^baseline laughs\.yaml: cannot be read as a baseline: it uses YAML aliases \(\*name\) that expand .*; write each entry out in full$/);
  });

  it('refuses a document nested deeper than any baseline needs, by the file name', () => {
    const deep = `entries: ${'['.repeat(100_000)}${']'.repeat(100_000)}\n`;
    expect(() => parseBaselineText(deep, 'deep.yaml')).toThrow(/^baseline deep\.yaml: /);
    expect(() => parseBaselineText(deep, 'deep.yaml')).toThrow(BaselineError);
  });

  it('still reads a baseline that uses an alias or two', () => {
    expect(parseBaselineText('- &e { target: a, case: x, reason: r }\n- { target: b, case: y, reason: r }\n', 'b.yaml').entries).toHaveLength(2);
  });
});

describe('parseBaselineText: each entry', () => {
  const problem = (entry: string): string => {
    try {
      parseBaselineText(`entries:\n  - ${entry}\n`, 'b.yaml');
    } catch (error) {
      expect(error).toBeInstanceOf(BaselineError);
      return (error as Error).message;
    }
    throw new Error('parsed without an error');
  };
  const entry = (text: string) => parseBaselineText(`- ${text}\n`, 'b.yaml').entries[0];

  it.each([
    ['a string', '"naive"', 'baseline b.yaml:2 (entry 1): expected an object with target, case and reason'],
    ['a list', '[naive]', 'baseline b.yaml:2 (entry 1): expected an object with target, case and reason'],
    ['nothing', '', 'baseline b.yaml:2 (entry 1): expected an object with target, case and reason'],
  ])('refuses an entry that is %s', (_title, text, message) => {
    expect(problem(text)).toBe(message);
  });

  it('refuses an unknown field with a did-you-mean, and without one when nothing is close, listing the fields', () => {
    expect(problem('{ target: naive, case: x, reason: r, vesion: "2025-11-25" }')).toBe(
      'baseline b.yaml:2 (entry 1): unknown field "vesion" (did you mean "version"?); use target, case, check, version, reason',
    );
    expect(problem('{ target: naive, case: x, reason: r, owner: team }')).toBe('baseline b.yaml:2 (entry 1): unknown field "owner"; use target, case, check, version, reason');
  });

  it.each([
    ['target missing', '{ case: x, reason: r }', '"target" must be a non-empty string, found nothing'],
    ['case missing', '{ target: naive, reason: r }', '"case" must be a non-empty string, found nothing'],
    ['case a number', '{ target: naive, case: 7, reason: r }', '"case" must be a non-empty string, found 7'],
    ['reason blank', '{ target: naive, case: x, reason: "  " }', '"reason" must be a non-empty string, found "  "'],
    ['check empty', '{ target: naive, case: x, check: "", reason: r }', '"check" must be a non-empty string, found ""'],
    ['version null', '{ target: naive, case: x, version: null, reason: r }', '"version" must be a non-empty string, found null'],
  ])('refuses %s', (_title, text, message) => {
    expect(problem(text)).toBe(`baseline b.yaml:2 (entry 1): ${message}`);
  });

  it('trims every field, and leaves out check and version when not given', () => {
    expect(entry('{ target: " naive ", case: " x ", reason: " why " }')).toStrictEqual({ target: 'naive', case: 'x', reason: 'why', index: 1, line: 1 });
    expect(entry('{ target: naive, case: x, check: " outcome@1 ", version: " 2026-07-28 ", reason: r }')).toStrictEqual({ target: 'naive', case: 'x', check: 'outcome@1', version: '2026-07-28', reason: 'r', index: 1, line: 1 });
  });

  it('reads case:check as the case and its check, at the first colon; a leading colon is part of the case', () => {
    expect(entry('{ target: naive, case: "x:client.exit:extra", reason: r }')).toMatchObject({ case: 'x', check: 'client.exit:extra' });
    expect(entry('{ target: naive, case: ":x", reason: r }')).toStrictEqual({ target: 'naive', case: ':x', reason: 'r', index: 1, line: 1 });
    expect(problem('{ target: naive, case: "x:outcome@1", check: status@1, reason: r }')).toBe('baseline b.yaml:2 (entry 1): "case" "x:outcome@1" names a check and "check" is set too; use one');
  });

  it('refuses a version that is not a protocol version, listing both', () => {
    expect(problem('{ target: naive, case: x, version: "2024-11-05", reason: r }')).toBe(
      'baseline b.yaml:2 (entry 1): "version" "2024-11-05" is not a protocol version; use 2025-03-26 or 2025-06-18 or 2025-11-25 or 2026-07-28, or leave it out for every version',
    );
  });
});

describe('parseBaselineText: an entry whose line the parser does not know', () => {
  it('is named by its index alone (a !!pairs list keeps no position for its items)', () => {
    expect(() => parseBaselineText('entries: !!pairs\n  - target: naive\n', 'b.yaml')).toThrow(/^baseline b\.yaml \(entry 1\): "case" must be a non-empty string, found nothing$/);
  });
});

describe('describeEntryLocation', () => {
  it('names the file, the line when known, and the entry', () => {
    const entry = { target: 'naive', case: 'x', reason: 'r', index: 3 };
    expect(describeEntryLocation({ file: 'b.yaml' }, { ...entry, line: 9 })).toBe('b.yaml:9 (entry 3)');
    expect(describeEntryLocation({ file: 'b.yaml' }, entry)).toBe('b.yaml (entry 3)');
  });
});
