import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { CELL_STATUSES } from '../../runner/vocabulary/types.js';
import { expectGolden } from '../../test/expect-golden.js';
import { makeCell, makeRunResult } from '../../test/make-run-result.js';
import { escapeXml, render } from './junit.js';

// Durations are the only volatile fields in JUnit output.
function maskTimes(xml: string): string {
  return xml.replace(/time="[\d.]+"/g, 'time="MASKED"');
}

interface ParsedCase {
  name: string;
  classname: string;
  failure?: { message: string; type: string };
  error?: { message: string };
  skipped?: { message: string } | string;
  'system-out': string;
}
interface ParsedSuite {
  name: string;
  tests: string;
  failures: string;
  errors: string;
  skipped: string;
  testcase: ParsedCase[];
}

function parse(xml: string): { testsuites: { testsuite: ParsedSuite[] } } {
  return new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', htmlEntities: true, isArray: (name) => name === 'testsuite' || name === 'testcase' }).parse(xml);
}

describe('JUnit report', () => {
  const result = makeRunResult();
  const xml = render(result);

  it('matches the golden file with durations masked', async () => {
    await expectGolden(maskTimes(xml), new URL('./__golden__/junit.xml', import.meta.url));
    // What a CI dashboard relies on, checked without the golden: per-target counts from the cells
    // (fail and xpass are failures, error is an error, skip and xfail are skipped) and one
    // testcase per cell, in well-formed XML.
    expect(XMLValidator.validate(xml)).toBe(true);
    const suites = parse(xml).testsuites.testsuite;
    for (const target of result.targets) {
      const cells = result.cells.filter((c) => c.target === target.name);
      const count = (...statuses: string[]) => String(cells.filter((c) => statuses.includes(c.status)).length);
      expect(suites.find((s) => s.name === target.name)).toMatchObject({
        tests: String(cells.length),
        failures: count('fail', 'xpass'),
        errors: count('error'),
        skipped: count('skip', 'xfail'),
      });
    }
    expect(suites.flatMap((s) => s.testcase)).toHaveLength(result.cells.length);
  });

  it('is valid XML under a strict validator', () => {
    expect(XMLValidator.validate(xml)).toBe(true);
  });

  it('has one flat testsuite per target with counts that agree with the cells', () => {
    const suites = parse(xml).testsuites.testsuite;
    expect(suites.map((s) => s.name)).toEqual(['reference', 'naive']);
    const naive = suites[1]!;
    expect(naive).toMatchObject({ tests: '5', failures: '1', errors: '1', skipped: '2' });
    expect(naive.testcase.every((t) => !('testsuite' in t))).toBe(true);
    expect(xml.match(/<testsuite /g)).toHaveLength(2);
  });

  it('names each testcase "<case> [<version>]" with the target as classname', () => {
    const first = parse(xml).testsuites.testsuite[0]!.testcase[0]!;
    expect(first).toMatchObject({ name: 'baseline [2025-11-25]', classname: 'reference' });
  });

  it.each([
    ['fail', 'failure'],
    ['xpass', 'failure'],
    ['error', 'error'],
    ['skip', 'skipped'],
    ['xfail', 'skipped'],
    ['pass', undefined],
    ['non_strict', undefined],
  ] as const)('maps %s to %s', (status, element) => {
    const one = render(makeRunResult({ cells: [makeCell({ status })] }));
    const testcase = parse(one).testsuites.testsuite[0]!.testcase[0]!;
    for (const tag of ['failure', 'error', 'skipped'] as const) expect(tag in testcase).toBe(tag === element);
    if (status !== 'pass') expect(testcase['system-out']).toContain('repro: npx mcp-error-matrix run --case baseline');
  });

  it('writes a plain pass as its name alone; a pass without a verdict, or with stderr, keeps its notes', () => {
    const plain = makeCell({ status: 'pass' });
    const wireOnly = makeCell({ case: 'content-not-array', status: 'pass', conclusion: 'wire_only' });
    const noisy = makeCell({ case: 'http-503-then-200', status: 'pass', targetRun: { exitCode: 0, timedOut: false, stderr: 'warning: slow', durationMs: 3 } });
    const xml = render(makeRunResult({ cells: [plain, wireOnly, noisy] }));
    expect(xml).toMatch(/<testcase name="baseline \[2025-11-25\]" classname="reference" time="[\d.]+"\/>/);
    const [, second, third] = parse(xml).testsuites.testsuite[0]!.testcase;
    expect(second!['system-out']).toContain('judged without a verdict');
    expect(third!['system-out']).toContain('repro: ');
    expect(xml).toContain('<system-err>warning: slow</system-err>');
  });

  it('covers every status in the mapping table', () => {
    for (const status of CELL_STATUSES) expect(() => render(makeRunResult({ cells: [makeCell({ status })] }))).not.toThrow();
  });

  it('lists each failing check on its own line in the failure message', () => {
    const cell = makeCell({ status: 'fail' });
    cell.checks.push({ ...cell.checks[0]!, id: 'second@1', message: 'second@1: expected TOOL_ERROR, got TOOL_SUCCESS' });
    const testcase = parse(render(makeRunResult({ cells: [cell] }))).testsuites.testsuite[0]!.testcase[0]!;
    expect(testcase.failure!.message.split('\n')).toHaveLength(2);
    // Written once: the judge's message names the check and both values (no id or values repeated).
    expect(testcase.failure!.message.split('\n')[1]).toBe('MUST second@1: expected TOOL_ERROR, got TOOL_SUCCESS (exchange 1) (false success)');
  });

  it('keeps a known failure <skipped> and names what it costs in its message, as TAP does; each failed check line too', () => {
    const check = { id: 'outcome@1', level: 'MUST' as const, passed: false, expected: 'STREAM_INCOMPLETE', actual: 'TOOL_SUCCESS', message: 'outcome@1: expected STREAM_INCOMPLETE, got TOOL_SUCCESS', consequence: 'false-success' as const };
    const known = makeCell({ status: 'xfail', reason: 'baseline: listed', checks: [check] });
    const unexpected = makeCell({ case: 'content-not-array', status: 'fail', checks: [check] });
    const [first, second] = parse(render(makeRunResult({ cells: [known, unexpected] }))).testsuites.testsuite[0]!.testcase;
    expect(first!.skipped).toEqual({ message: 'known failure, false success: baseline: listed' });
    expect(first!['system-out']).toContain('known failure:\nMUST outcome@1: expected STREAM_INCOMPLETE, got TOOL_SUCCESS (false success)');
    expect(second!.failure!.message).toBe('MUST outcome@1: expected STREAM_INCOMPLETE, got TOOL_SUCCESS (false success)');
    // Without a graded check the kind is "other", never left out.
    const ungraded = makeCell({ status: 'xfail', reason: 'baseline: listed', checks: [{ ...check, consequence: undefined }] });
    expect(parse(render(makeRunResult({ cells: [ungraded] }))).testsuites.testsuite[0]!.testcase[0]!.skipped).toEqual({ message: 'known failure, other: baseline: listed' });
  });

  it('notes non_strict cells in system-out', () => {
    const testcase = parse(render(makeRunResult({ cells: [makeCell({ status: 'non_strict' })] }))).testsuites.testsuite[0]!.testcase[0]!;
    expect(testcase['system-out']).toContain('non_strict: only SHOULD/POLICY checks failed');
  });

  it('escapes the five XML specials and strips characters XML 1.0 forbids', () => {
    expect(escapeXml(`<a href="x">'&'</a>\u0000\u001b[1m\ufffe`)).toBe('&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;');
  });
});
