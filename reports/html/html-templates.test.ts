// The build's precompiled HTML templates (reports/html/build-html-templates.ts) render the same bytes
// as the templates compiled at run time (the path vitest takes, which the goldens pin), on a page
// with its cells in the markup and on one that draws its rows from data, trends included; and
// precompiled templates that no longer match the sources, or a missing module, fall back to
// compiling at run time.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { getMixedLargeTail } from '../../test/mixed-large-result.js';
import { render } from './html.js';
import { generatePrecompiledModule, getHtmlTemplates, loadPrecompiledTemplates } from './html-templates.js';

describe('precompiled HTML templates', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-html-templates-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const result = getMixedLargeTail(1500);
  const writeModule = (name: string, text: string) => {
    const file = join(dir, name);
    writeFileSync(file, text);
    return pathToFileURL(file);
  };

  it('finds no module when there is none (running from source) and compiles at run time', async () => {
    expect(await loadPrecompiledTemplates(pathToFileURL(join(dir, 'absent.mjs')))).toBe(false);
    expect(getHtmlTemplates().madeBy).toBe('compiled at run time');
  });

  it('renders byte for byte what the run-time compile renders, with cells in the markup and drawn from data', async () => {
    const pages = [render(result), render(result, { drawRowsAbove: 100 })];
    expect(getHtmlTemplates().madeBy).toBe('compiled at run time');
    expect(await loadPrecompiledTemplates(writeModule('fresh.mjs', generatePrecompiledModule()))).toBe(true);
    expect(getHtmlTemplates().madeBy).toBe('precompiled');
    expect(render(result)).toBe(pages[0]);
    expect(render(result, { drawRowsAbove: 100 })).toBe(pages[1]);
    // The family's trend (the partial) is on the page.
    expect(pages[0]).toContain('sdk@1.1.0');
  });

  it('compiles at run time when the precompiled module came from other template sources or another handlebars', async () => {
    const expected = render(result);
    const stale = generatePrecompiledModule().replace(/"matrix\.hbs":"[0-9a-f]{64}"/, `"matrix.hbs":"${'0'.repeat(64)}"`);
    expect(await loadPrecompiledTemplates(writeModule('stale.mjs', stale))).toBe(true);
    expect(getHtmlTemplates().madeBy).toBe('compiled at run time');
    expect(render(result)).toBe(expected);
    const otherVersion = generatePrecompiledModule().replace(/"handlebars":"[^"]+"/, '"handlebars":"0.0.1"');
    expect(await loadPrecompiledTemplates(writeModule('other-version.mjs', otherVersion))).toBe(true);
    expect(getHtmlTemplates().madeBy).toBe('compiled at run time');
  });

  it('ignores a module of another shape, and names the file and the fix when it cannot be loaded', async () => {
    expect(await loadPrecompiledTemplates(writeModule('shape.mjs', 'export const matrix = 1;\n'))).toBe(false);
    const broken = writeModule('broken.mjs', 'export const = ;\n');
    await expect(loadPrecompiledTemplates(broken)).rejects.toThrow(/broken\.mjs cannot be loaded .*run `npm run build` again/s);
  });
});
