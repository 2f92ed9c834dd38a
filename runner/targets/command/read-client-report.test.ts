import { describe, expect, it } from 'vitest';
import { readClientReport } from './read-client-report.js';

const success = { outcome: 'TOOL_SUCCESS', layer: 'application' };

describe('readClientReport', () => {
  it.each([
    ['the verdict file', { fileText: JSON.stringify(success), lastStdoutLine: '' }, 'file'],
    ['the last stdout line', { fileText: undefined, lastStdoutLine: JSON.stringify(success) }, 'stdout'],
    ['the file before stdout', { fileText: JSON.stringify(success), lastStdoutLine: '{"outcome":"TOOL_ERROR"}' }, 'file'],
    ['stdout when the file is empty', { fileText: '  \n', lastStdoutLine: JSON.stringify(success) }, 'stdout'],
  ])('reads a verdict from %s', (_title, input, source) => {
    expect(readClientReport({ ...input, calls: 1 })).toEqual({ verdicts: [success], invalidVerdicts: [], source });
  });

  // Issue 11 item 14: a 300 KB log line on stdout made a valid verdict file count for nothing.
  it('reads the verdict file whatever the last stdout line is, even one over the size cap', () => {
    for (const lastStdoutLine of ['x'.repeat(300 * 1024), `{"log": "${'x'.repeat(300 * 1024)}"}`]) {
      expect(readClientReport({ fileText: JSON.stringify(success), lastStdoutLine, calls: 1 })).toEqual({ verdicts: [success], invalidVerdicts: [], source: 'file' });
    }
  });

  it('treats a long log line that is not JSON-shaped as no report, and refuses an oversized JSON-shaped one', () => {
    expect(readClientReport({ fileText: undefined, lastStdoutLine: 'x'.repeat(300 * 1024), calls: 1 })).toEqual({ verdicts: [null], invalidVerdicts: [], source: 'none' });
    const oversized = readClientReport({ fileText: undefined, lastStdoutLine: `[${'1,'.repeat(150 * 1024)}1]`, calls: 1 });
    expect(oversized.source).toBe('stdout');
    expect(oversized.invalidVerdicts[0]?.problem).toMatch(/the last stdout line holds \d+ characters, more than the 262144/);
    const oversizedFile = readClientReport({ fileText: ' '.repeat(10) + '{'.repeat(300 * 1024), lastStdoutLine: '', calls: 1 });
    expect(oversizedFile.invalidVerdicts[0]?.problem).toMatch(/the verdict file holds/);
  });

  it('treats a log line that is not JSON-shaped as no report at all', () => {
    expect(readClientReport({ fileText: undefined, lastStdoutLine: 'done: 1 call', calls: 1 })).toEqual({ verdicts: [null], invalidVerdicts: [], source: 'none' });
  });

  it('flags JSON-shaped text that does not parse, and an object that is not a verdict', () => {
    const broken = readClientReport({ fileText: undefined, lastStdoutLine: '{"outcome": "TOOL_SUCC', calls: 1 });
    expect(broken.invalidVerdicts[0]).toMatchObject({ index: 0, problem: expect.stringContaining('the last stdout line is not JSON') });
    const wrong = readClientReport({ fileText: '{"outcome":"SUCCESS"}', lastStdoutLine: '', calls: 1 });
    expect(wrong.invalidVerdicts[0]).toMatchObject({ index: 0, value: { outcome: 'SUCCESS' }, problem: expect.stringContaining('outcome must be one of') });
  });

  it('maps an array to the calls, and a single verdict to the last call', () => {
    const error = { outcome: 'HTTP_ERROR', layer: 'transport', status: 503 };
    expect(readClientReport({ fileText: JSON.stringify([error, success]), lastStdoutLine: '', calls: 2 }).verdicts).toEqual([error, success]);
    expect(readClientReport({ fileText: JSON.stringify(success), lastStdoutLine: '', calls: 2 }).verdicts).toEqual([null, success]);
    expect(readClientReport({ fileText: JSON.stringify([error, null]), lastStdoutLine: '', calls: 2 }).verdicts).toEqual([error, null]);
    expect(readClientReport({ fileText: JSON.stringify([error, success]), lastStdoutLine: '', calls: 1 }).invalidVerdicts[0]?.problem).toBe('2 verdicts for 1 explicit call(s)');
  });

  it('reads {"skip": reason} from either channel', () => {
    expect(readClientReport({ fileText: '{"skip":"no 2026 support"}', lastStdoutLine: '', calls: 1 }).skip).toBe('no 2026 support');
    expect(readClientReport({ fileText: undefined, lastStdoutLine: '{"skip":""}', calls: 1 }).skip).toBe('the client skipped this cell');
  });
});
