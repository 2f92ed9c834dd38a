// --no-schemas is stated where a reader looks first, in every format: the summary line, the
// top of summary.md, the TAP header comment and the HTML header; never when schemas were checked.
import { describe, expect, it } from 'vitest';
import { createProgress } from '../../runner/commands/progress.js';
import type { CliIo } from '../../runner/cli/cli-io.js';
import { makeRunResult } from '../../test/make-run-result.js';
import { renderHtml } from '../html/index.js';
import { renderMarkdown } from '../formats/index.js';
import { SCHEMAS_OFF_NOTICE } from './schema-notice.js';
import { renderTap } from '../formats/index.js';

const off = makeRunResult({ schemas: null });
const on = makeRunResult();

function summaryLine(result: typeof off): string {
  let stderr = '';
  const io = { stdout: () => undefined, stderr: (text: string) => void (stderr += text), cwd: '/', env: {}, isTTY: false } as CliIo;
  createProgress(io, { quiet: false }).done(result);
  return stderr;
}

describe('--no-schemas in every header', () => {
  it('the summary line on stderr', () => {
    expect(summaryLine(off)).toMatch(/^10 cells: .* \(schema checks off: --no-schemas\)\n$/);
    expect(summaryLine(on)).not.toContain('schema');
  });

  it('summary.md, right under the counts line', () => {
    const lines = renderMarkdown(off).split('\n');
    expect(lines.slice(0, 6)).toContain('> **Schema checks off (--no-schemas):** no message was checked against the official schemas.');
    expect(renderMarkdown(on)).not.toContain('Schema checks off');
  });

  it('the TAP header comment, before the plan', () => {
    expect(renderTap(off).split('\n').slice(0, 3)).toEqual(['TAP version 14', `# ${SCHEMAS_OFF_NOTICE}`, '1..2']);
    expect(renderTap(on).split('\n').slice(0, 2)).toEqual(['TAP version 14', '1..2']);
  });

  it('the HTML header strip', () => {
    const header = (html: string) => html.slice(html.indexOf('<header class="strip">'), html.indexOf('</header>'));
    expect(header(renderHtml(off))).toContain(`<dt>Schemas</dt><dd><strong>${SCHEMAS_OFF_NOTICE}</strong></dd>`);
    expect(renderHtml(on)).not.toContain('<dt>Schemas</dt>');
  });
});
