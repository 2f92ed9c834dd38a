import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { makeCell, makeCheck, makeRunResult } from '../../test/make-run-result.js';
import { INDEX_CELL_FIELDS, render, renderChunks, RESULTS_FORMAT } from './json.js';
import { FULL_RESULTS_FILE, FULL_RESULTS_FORMAT, gzipChunks, renderFull, renderFullChunks, renderFullGzipChunks } from './json-full.js';
import { redactRunResult } from '../redaction/index.js';

describe('results.json (results@2)', () => {
  const result = makeRunResult();

  it('keeps the run\'s fields and names the file that holds the whole model', () => {
    const json = JSON.parse(render(result)) as Record<string, unknown>;
    const { cells: _cells, format: _format, ...head } = result;
    expect(json).toMatchObject({ ...head, format: RESULTS_FORMAT, evidence: { file: FULL_RESULTS_FILE, format: FULL_RESULTS_FORMAT, encoding: 'gzip' } });
    expect(Object.keys(json).slice(0, 2)).toEqual(['format', 'evidence']);
  });

  it('writes one line per cell with its verdict and only its failed checks; wire, output and repro stay in the evidence file', () => {
    const text = render(result);
    const lines = text.split('\n').filter((line) => line.startsWith('    {"case":'));
    expect(lines).toHaveLength(result.cells.length);
    const cells = (JSON.parse(text) as { cells: Record<string, unknown>[] }).cells;
    for (const [i, cell] of cells.entries()) {
      const source = result.cells[i]!;
      expect(Object.keys(cell).every((key) => (INDEX_CELL_FIELDS as readonly string[]).includes(key))).toBe(true);
      expect(cell).toMatchObject({ case: source.case, target: source.target, protocolVersion: source.protocolVersion, status: source.status, durationMs: source.durationMs });
      expect(cell['checks']).toEqual(source.checks.filter((check) => !check.passed));
    }
    expect(text).not.toContain('"recording"');
    expect(text).not.toContain('"repro"');
  });

  it('redacts reasons and failed checks as results.json always did', () => {
    const secret = 'Authorization: Bearer abcdefghijklmnopqrstuv0123456789';
    const cell = makeCell({ status: 'fail', reason: `failed: ${secret}`, checks: [makeCheck({ passed: false, message: `got ${secret}`, actual: secret })] });
    const text = render(makeRunResult({ cells: [cell] }));
    expect(text).not.toContain('abcdefghijklmnopqrstuv0123456789');
    expect(text).toContain('[REDACTED]');
  });

  it('writes C1 controls and line separators as escapes', () => {
    const text = render(makeRunResult({ cells: [makeCell({ status: 'skip', reason: 'a\u009bb\u2028c' })] }));
    expect(text).not.toMatch(/[\u0080-\u009f\u2028\u2029]/);
    expect(JSON.parse(text).cells[0].reason).toBe('a\u009bb\u2028c');
  });

  it('streams in chunks and writes an empty run', () => {
    expect([...renderChunks(result)].join('')).toBe(render(result));
    expect(JSON.parse(render({ ...result, cells: [] })).cells).toEqual([]);
  });
});

describe('results.full.json.gz (results@1)', () => {
  it('streams exactly the text of one JSON.stringify over the redacted result', () => {
    const result = makeRunResult();
    expect(renderFull(result)).toBe(`${JSON.stringify(redactRunResult(result))}\n`);
    expect(renderFull(result, { indent: 2 })).toBe(`${JSON.stringify(redactRunResult(result), null, 2)}\n`);
    expect(renderFull({ ...result, cells: [] }, { indent: 2 })).toBe(`${JSON.stringify({ ...result, cells: [] }, null, 2)}\n`);
    expect([...renderFullChunks(result)].length).toBeGreaterThan(result.cells.length);
  });

  it('is that text compressed, in gzip members that gunzip reads back as one stream', () => {
    const cells = Array.from({ length: 300 }, (_, i) => makeCell({ case: `case-${i}` }));
    const result = makeRunResult({ cells });
    const members = [...gzipChunks(renderFullChunks(result), 4096)];
    expect(members.length).toBeGreaterThan(10);
    expect(gunzipSync(Buffer.concat(members)).toString('utf8')).toBe(renderFull(result));
    expect(gunzipSync(Buffer.concat([...renderFullGzipChunks(result)])).toString('utf8')).toBe(renderFull(result));
    // A run's evidence repeats itself across cells: compressed it is a small fraction of the text.
    expect(Buffer.concat([...renderFullGzipChunks(result)]).length).toBeLessThan(renderFull(result).length / 10);
  });
});
