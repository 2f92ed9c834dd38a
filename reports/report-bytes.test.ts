// The streamed report writers against the bytes the formats wrote before reports were streamed
// from a cell source: a 10,000-cell result with hostile, secret-bearing and family cells renders
// to the reviewed digests in __golden__/report-digests-10k.txt, format by format.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { expectGolden } from '../test/expect-golden.js';
import { makeFreshSource } from '../test/make-report-source.js';
import { makeRunResult } from '../test/make-run-result.js';
import { getMixedLargeResult, getMixedLargeTail } from '../test/mixed-large-result.js';
import type { RunResult } from '../runner/vocabulary/types.js';
import { renderReportChunks, REPORT_FORMATS, type ReportFormatName } from './index.js';
import { FULL_RESULTS_FILE, renderFullChunks } from './formats/index.js';
import type { ReportSource } from './model/index.js';

function digestText(name: string, chunks: Iterable<string>): string {
  const hash = createHash('sha256');
  let bytes = 0;
  for (const chunk of chunks) {
    const encoded = Buffer.from(chunk);
    hash.update(encoded);
    bytes += encoded.length;
  }
  return `${name} ${hash.digest('hex')} ${bytes}`;
}

/** "file sha256 bytes" per streamed format, in REPORT_FORMATS order. */
function digestFormats(result: RunResult | ReportSource): string {
  const lines: string[] = [];
  for (const [name, format] of Object.entries(REPORT_FORMATS)) {
    if (name === 'html') continue; // the HTML has its own goldens (html.test.ts) and owner
    const hash = createHash('sha256');
    let bytes = 0;
    for (const chunk of format.chunks(result, {})) {
      const encoded = Buffer.from(chunk);
      hash.update(encoded);
      bytes += encoded.length;
    }
    lines.push(`${format.file} ${hash.digest('hex')} ${bytes}`);
    // results.json's evidence, as text: gzip's bytes are zlib's to choose, the text is ours.
    if (name === 'json') lines.push(digestText(FULL_RESULTS_FILE.replace(/\.gz$/, ' (uncompressed)'), renderFullChunks(result)));
  }
  return `${lines.join('\n')}\n`;
}

describe('report bytes on a 10,000-cell result', () => {
  it('every streamed format writes the bytes it wrote before streaming from a cell source', async () => {
    await expectGolden(digestFormats(getMixedLargeResult()), new URL('./__golden__/report-digests-10k.txt', import.meta.url));
  });

  it('and so does a small result (indented results.json)', async () => {
    await expectGolden(digestFormats(getMixedLargeTail(20)), new URL('./__golden__/report-digests-small.txt', import.meta.url));
  });

  it('a source that makes its cells on demand gives the same bytes as the result in memory', () => {
    const result = getMixedLargeTail(2000);
    const source = makeFreshSource(result);
    expect(digestFormats(source)).toBe(digestFormats(result));
    // Each writer reads the cells a few passes over, never keeping them: more reads than cells.
    expect(source.reads).toBeGreaterThan(result.cells.length * 4);
  });
});

describe('renderReportChunks formats', () => {
  it('writes the formats asked for, in that order, and names the choices for an unknown one', () => {
    const result = makeRunResult();
    expect(renderReportChunks(result, {}, ['junit', 'json']).map((file) => file.name)).toEqual(['results.junit.xml', 'results.json', 'results.full.json.gz']);
    expect(() => renderReportChunks(result, {}, ['pdf' as ReportFormatName])).toThrow('unknown report format "pdf" in formats: use tap, json, junit, markdown, summary, html');
  });
});
