// How a command client's report is read, rule by rule: what counts as a report, the size it may
// have, which call each verdict answers, what a skip is, and what the cell keeps of a report it
// cannot read (the client's own words, clipped where it says so).
import { describe, expect, it } from 'vitest';
import { readClientReport, readReportValue } from './read-client-report.js';

const success = { outcome: 'TOOL_SUCCESS', layer: 'application' };
const text = JSON.stringify(success);
const stdout = (lastStdoutLine: string, calls = 1) => readClientReport({ fileText: undefined, lastStdoutLine, calls });
const file = (fileText: string, calls = 1) => readClientReport({ fileText, lastStdoutLine: '', calls });

describe('what counts as a report on stdout', () => {
  it('a line that starts with { or [, after white space, is a report', () => {
    expect(stdout(`   ${text}`)).toEqual({ verdicts: [success], invalidVerdicts: [], source: 'stdout' });
  });

  it('a log line that holds JSON after other text is not a report', () => {
    expect(stdout(`result: ${text}`)).toEqual({ verdicts: [null], invalidVerdicts: [], source: 'none' });
  });
});

describe('the size of a report', () => {
  const padded = (length: number) => `${text}${' '.repeat(length - text.length)}`;

  it('one of exactly 256 KiB is read', () => {
    expect(file(padded(256 * 1024)).verdicts).toEqual([success]);
  });

  it('one character more is refused unread, against the last of the calls, every verdict left unread', () => {
    const report = file(padded(256 * 1024 + 1), 3);
    expect(report.verdicts).toEqual([null, null, null]);
    expect(report.invalidVerdicts).toHaveLength(1);
    expect(report.invalidVerdicts[0]).toMatchObject({ index: 2, problem: 'the verdict file holds 262145 characters, more than the 262144 a report may have' });
  });
});

describe('a report that is not JSON', () => {
  it('is named by where it came from and kept as the client wrote it, trimmed', () => {
    expect(file('  not json \n', 2)).toEqual({
      verdicts: [null, null],
      invalidVerdicts: [{ index: 1, value: 'not json', problem: expect.stringMatching(/^the verdict file is not JSON \(/) }],
      source: 'file',
    });
    expect(stdout('{not json', 1).invalidVerdicts[0]?.problem).toMatch(/^the last stdout line is not JSON \(/);
  });

  it('is kept whole up to 500 characters, and cut to 500 with a marker past them', () => {
    const at = `{${'x'.repeat(499)}`;
    expect(stdout(at).invalidVerdicts[0]?.value).toBe(at);
    const past = `{${'x'.repeat(500)}`;
    expect(stdout(past).invalidVerdicts[0]?.value).toBe(`${past.slice(0, 497)}...`);
  });
});

describe('which call each verdict answers', () => {
  it('a null in the array leaves its call without a verdict, and is no error', () => {
    expect(readReportValue([null, success], 'stdout', 2)).toEqual({ verdicts: [null, success], invalidVerdicts: [], source: 'stdout' });
  });

  it('more verdicts than calls: the first ones answer, the report is named as too long, as JSON', () => {
    const report = readReportValue([success, success, success], 'stdout', 2);
    expect(report.verdicts).toEqual([success, success]);
    expect(report.invalidVerdicts).toEqual([{ index: 1, value: JSON.stringify([success, success, success]), problem: '3 verdicts for 2 explicit call(s)' }]);
  });
});

describe('a skip', () => {
  it("keeps the client's reason, trimmed", () => {
    expect(readReportValue({ skip: '  no such transport \n' }, 'file', 1).skip).toBe('no such transport');
  });

  it('without a reason in words says the client skipped', () => {
    for (const skip of ['', '   ', 5, null]) expect(readReportValue({ skip }, 'file', 1).skip).toBe('the client skipped this cell');
  });

  it('is only an object with a skip key: a string, a number or null reported is read as a verdict', () => {
    expect(readReportValue('skip', 'stdout', 1)).toMatchObject({ verdicts: [null], invalidVerdicts: [{ index: 0, value: 'skip' }] });
    expect(readReportValue(7, 'stdout', 1)).toMatchObject({ verdicts: [null], invalidVerdicts: [{ index: 0, value: 7 }] });
    expect(readReportValue(null, 'stdout', 1)).toEqual({ verdicts: [null], invalidVerdicts: [], source: 'stdout' });
    expect(readReportValue(null, 'stdout', 1)).not.toHaveProperty('skip');
  });
});
