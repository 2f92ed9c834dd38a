import { describe, expect, it } from 'vitest';
import { makeCell, makeRunResult } from '../test/make-run-result.js';
import { COMPACT_JSON_CELLS, render, renderChunks } from './json.js';
import { redactRunResult } from './redact-result.js';

describe('results.json', () => {
  it('streams exactly the text of one JSON.stringify over the redacted result', () => {
    const result = makeRunResult();
    expect(render(result)).toBe(`${JSON.stringify(redactRunResult(result), null, 2)}\n`);
    expect(render(result, { indent: 0 })).toBe(`${JSON.stringify(redactRunResult(result))}\n`);
    expect(render({ ...result, cells: [] })).toBe(`${JSON.stringify({ ...result, cells: [] }, null, 2)}\n`);
    expect([...renderChunks(result)].length).toBeGreaterThan(result.cells.length);
  });

  it('is compact above the size threshold and still parses', () => {
    // The threshold counts cells, not bytes: one cell over it, each as small as a cell gets (a
    // skipped cell has no recording): 6.5 MB of text instead of the 33 MB of synthetic cells.
    const cells = Array.from({ length: COMPACT_JSON_CELLS + 1 }, (_, i) => makeCell({ case: `case-${i}`, status: 'skip' }));
    const big = makeRunResult({ cells });
    expect(big.cells.length).toBeGreaterThan(COMPACT_JSON_CELLS);
    const text = render(big);
    expect(text).toBe(`${JSON.stringify(redactRunResult(big))}\n`);
    expect(JSON.parse(text).cells).toHaveLength(big.cells.length);
  });
});

describe('redactCell', () => {
  it('returns a clean cell as it is and copies only a cell with something to redact', async () => {
    const { redactCell } = await import('./redact-result.js');
    const clean = makeRunResult().cells[0]!;
    expect(redactCell(clean)).toBe(clean);
    const secret = { ...clean, reason: 'failed with Authorization: Bearer abcdefghijklmnop' };
    const redacted = redactCell(secret);
    expect(redacted).not.toBe(secret);
    expect(redacted.reason).not.toContain('abcdefghijklmnop');
    expect(secret.reason).toContain('abcdefghijklmnop');
    expect(redacted.checks).toBe(secret.checks);
  });
});
