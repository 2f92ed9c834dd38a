// The HTML read from a source that makes its cells on demand (a huge run written with bounded
// memory): the same page, byte for byte, as from the result in memory, on a page with its cells
// in the markup and on a page that draws its rows from data, trends included.
import { describe, expect, it } from 'vitest';
import { makeFreshSource } from '../../test/make-report-source.js';
import { getMixedLargeTail } from '../../test/mixed-large-result.js';
import { renderChunks } from './html.js';

describe('matrix.html from a cell source', () => {
  const result = getMixedLargeTail(1500);

  it.each([
    ['cells in the markup', {}],
    ['rows drawn from data', { drawRowsAbove: 100 }],
  ])('gives the page the result in memory gives (%s), reading the cells in passes, never all at once', (_label, options) => {
    const source = makeFreshSource(result);
    const fromSource = [...renderChunks(source, options)].join('');
    expect(fromSource).toBe([...renderChunks(result, options)].join(''));
    // The family's trend is on the page: the passes reached the family cells.
    expect(fromSource).toContain('sdk@1.1.0');
    expect(source.reads).toBeGreaterThan(result.cells.length * 2);
  });
});
