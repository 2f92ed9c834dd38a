// Issue 11 item 13 (and the U+009B part of item 15): every text field in every format is
// escaped for that format, whatever the text. A property over arbitrary strings, biased
// towards what breaks formats (line and paragraph separators, C0/C1 controls, ESC, NUL, lone
// surrogates, markup and Markdown punctuation, TAP keywords): TAP stays strict-parsable with
// one point per cell, JUnit stays well-formed XML with one testcase per cell, Markdown tables
// keep their columns, HTML stays inert, results.json parses and holds no raw C1 or separator.
import fc from 'fast-check';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { Parser } from 'tap-parser';
import { describe, expect, test } from 'vitest';
import { REPORT_FORMATS, type ReportFormatName } from '../../reports/index.js';
import { renderFull } from '../../reports/formats/index.js';
import type { RunResult } from '../../runner/vocabulary/types.js';
import { makeHostileRunResult } from '../make-run-result.js';

const SEED = 20261201;
const RUNS = Number(process.env.MEM_ESCAPING_RUNS ?? 25);

const SPECIALS = [
  '\u2028', '\u2029', '\u0085', '\u009b', '\u009b31m', '\u001b', '\u001b[2J', '\u001b]0;x\u0007', '\u0000', '\u0007', '\u000b', '\u000c', '\u007f',
  '\ud800', '\udfff', '\ufeff', '\ufffe', '\uffff', '\n', '\r', '\r\n', '\t', ' ', '#', '\\', '|', '`', '*', '_', '[', ']', '(', ')', '!', '~', '{', '}',
  '<', '>', '&', '"', "'", ']]>', '<!--', '</script>', '<script>', '<img src=x onerror=alert(1)>', '---', '...', '- ', ': ', '? ', '%', '@', '&amp;',
  'ok 1 - x', 'not ok 2 - y', 'Bail out!', '# Subtest: z', '1..9', 'TAP version 14', '# SKIP', '# TODO', '😀', 'é', '\u200b',
];
const unit = fc.oneof({ arbitrary: fc.constantFrom(...SPECIALS), weight: 3 }, { arbitrary: fc.string({ unit: 'binary', maxLength: 3 }), weight: 1 }, { arbitrary: fc.string({ maxLength: 4 }), weight: 1 });
const text = fc.array(unit, { maxLength: 12 }).map((parts) => parts.join(''));

/** The hostile run with every text field a report prints replaced by generated text. */
function makeResult(texts: string[]): RunResult {
  const pick = (i: number) => texts[i % texts.length]!;
  const result = makeHostileRunResult();
  result.targets = [{ name: `t ${pick(0)}`, kind: 'command', version: pick(1) }, { name: `u ${pick(2)}`, kind: 'classifier', version: pick(3) }];
  result.cases = result.cases.map((item, i) => ({ ...item, title: pick(4 + i), description: pick(7 + i) }));
  result.cells = result.cells.flatMap((cell, i) => {
    const checks = cell.checks.map((check) => ({ ...check, message: pick(10 + i), expected: pick(11 + i), actual: { outcome: 'TOOL_SUCCESS', detail: pick(12 + i) } }));
    const actual = [{ outcome: 'TOOL_ERROR' as const, layer: 'application' as const, detail: pick(13 + i) }];
    const recording = cell.recording && {
      ...cell.recording,
      exchanges: cell.recording.exchanges.map((exchange) => ({
        ...exchange,
        request: { ...exchange.request, path: `/mcp?q=${pick(14 + i)}`, headers: { ...exchange.request.headers, 'x-text': pick(15 + i) } },
        response: exchange.response && { ...exchange.response, body: pick(16 + i), headers: { ...exchange.response.headers, 'x-text': pick(17 + i) } },
      })),
    };
    const targetRun = { exitCode: 1, timedOut: false, durationMs: 5, stdout: pick(18 + i), stderr: pick(19 + i) };
    const common = { ...cell, checks, actual, targetRun, ...(recording ? { recording } : {}), ...(cell.reason === undefined ? {} : { reason: pick(20 + i) }), repro: `npx mcp-error-matrix run ${pick(21 + i)}` };
    return [{ ...common, target: result.targets[0]!.name }, { ...common, target: result.targets[1]!.name }];
  });
  return result;
}

/** One format's text, exactly as renderReports gives it: each property reads one format, and rendering all five for each cost five times the work. */
function render(result: RunResult, format: ReportFormatName): string {
  return REPORT_FORMATS[format].render(result, {});
}

async function parseTap(tap: string): Promise<{ top: number; sub: number; failures: unknown[] }> {
  const parser = new Parser({ strict: true });
  let top = 0;
  let sub = 0;
  const failures: unknown[] = [];
  parser.on('assert', () => top++);
  parser.on('child', (child: Parser) => child.on('assert', () => sub++));
  parser.on('complete', (results: { failures: { tapError?: unknown }[] }) => failures.push(...results.failures.filter((failure) => failure.tapError)));
  const done = new Promise((resolve) => parser.on('complete', resolve));
  parser.end(tap);
  await done;
  return { top, sub, failures };
}

const columns = (line: string) => line.replace(/\\\\/g, '').replace(/\\\|/g, '').split('|').length;

describe('every text field in every format, under arbitrary text (fixed seed, bounded runs)', () => {
  const cleanHtml = render({ ...makeHostileRunResult(), cells: [], cases: [], targets: [] }, 'html');
  const tagsOf = (html: string) => new Set([...html.matchAll(/<([a-zA-Z][a-zA-Z0-9-]*)/g)].map((match) => match[1]!.toLowerCase()));
  // The template's own tags for the same shape of result with harmless texts (two target kinds, so
  // the stack headings of the target list are there too).
  const cleanTags = tagsOf(render(makeResult(new Array<string>(24).fill('plain')), 'html'));
  const scripts = (html: string) => (html.match(/<script\b/gi) ?? []).length;

  test('TAP is strict-parsable with one point per cell and per target', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(text, { minLength: 24, maxLength: 24 }), async (texts) => {
        const result = makeResult(texts);
        const tap = render(result, 'tap');
        const parsed = await parseTap(tap);
        expect(parsed.failures).toEqual([]);
        expect(parsed.top).toBe(result.targets.length);
        expect(parsed.sub).toBe(result.cells.length);
        expect(tap).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029]/);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  test('JUnit is well-formed XML with one testcase per cell', () => {
    fc.assert(
      fc.property(fc.array(text, { minLength: 24, maxLength: 24 }), (texts) => {
        const result = makeResult(texts);
        const xml = render(result, 'junit');
        expect(XMLValidator.validate(xml)).toBe(true);
        const parsed = new XMLParser({ ignoreAttributes: false, isArray: (name) => name === 'testsuite' || name === 'testcase' }).parse(xml) as { testsuites: { testsuite: { testcase: unknown[] }[] } };
        expect(parsed.testsuites.testsuite.reduce((sum, suite) => sum + suite.testcase.length, 0)).toBe(result.cells.length);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  test('Markdown tables keep their columns and the failing list keeps one line per cell', () => {
    fc.assert(
      fc.property(fc.array(text, { minLength: 24, maxLength: 24 }), (texts) => {
        const result = makeResult(texts);
        const md = render(result, 'markdown');
        const rows = md.split('\n').filter((line) => line.startsWith('|'));
        expect(rows.length).toBe(2 + result.targets.length);
        for (const row of rows) expect(columns(row), row).toBe(columns(rows[0]!));
        const listed = result.cells.filter((cell) => ['fail', 'error', 'xpass'].includes(cell.status)).length;
        const known = result.cells.filter((cell) => cell.status === 'xfail').length;
        const targets = new Set([...result.targets.map((t) => t.name), ...result.cells.map((c) => c.target)]).size;
        // One line per target, per unexpected failure, per known failure; nothing else starts a list item.
        const items = (from: string, to: string) => md.slice(md.indexOf(from), md.indexOf(to)).split('\n').filter((line) => line.startsWith('- **')).length;
        expect(items('### Failures per target', '### Unexpected failures')).toBe(targets);
        expect(items('### Unexpected failures', '### Known failures')).toBe(listed);
        expect(md.split('\n').filter((line) => line.startsWith('- **')).length).toBe(targets + listed + known);
        expect(md.split('\n').filter((line) => line.startsWith('#')).every((line) => /^#{2,4} /.test(line))).toBe(true);
        expect(md).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029]/);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  test('HTML stays inert: only the template\'s tags and scripts, no event handlers', () => {
    fc.assert(
      fc.property(fc.array(text, { minLength: 24, maxLength: 24 }), (texts) => {
        const html = render(makeResult(texts), 'html');
        expect(scripts(html)).toBe(scripts(cleanHtml));
        for (const tag of tagsOf(html)) expect(cleanTags.has(tag), `<${tag}`).toBe(true);
        expect(html).not.toMatch(/<[a-z]+[^>]*\son\w+=/i);
        expect(html).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  test('results.json, results.full.json.gz and summary.json parse and write C1 controls and U+2028/U+2029 as escapes', () => {
    fc.assert(
      fc.property(fc.array(text, { minLength: 24, maxLength: 24 }), (texts) => {
        const result = makeResult(texts);
        for (const json of [render(result, 'json'), renderFull(result), render(result, 'summary')]) {
          expect(() => JSON.parse(json)).not.toThrow();
          expect(json).not.toMatch(/[\u007f-\u009f\u2028\u2029]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
        }
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  test('results.full.json.gz keeps the data: a raw U+009B in a body reads back as U+009B', () => {
    const result = makeHostileRunResult();
    result.cells[0]!.recording!.exchanges[0]!.response!.body = 'csi \u009b31m and \u2028 separator';
    const json = renderFull(result);
    expect(json).toContain('csi \\u009b31m and \\u2028 separator');
    const back = JSON.parse(json) as RunResult;
    expect(back.cells[0]!.recording!.exchanges[0]!.response!.body).toBe('csi \u009b31m and \u2028 separator');
  });
});
