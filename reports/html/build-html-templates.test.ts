// The build step that writes the precompiled HTML templates: the module it writes is the one
// generatePrecompiledModule() makes (html-templates.test.ts shows it renders the same bytes),
// under the name the report loads, written beside and renamed so no temporary file is left.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { generatePrecompiledModule, PRECOMPILED_TEMPLATES_FILE } from './html-templates.js';
import { buildHtmlTemplates } from './build-html-templates.js';

const dir = mkdtempSync(join(tmpdir(), 'mem-build-templates-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('writes the precompiled templates module under the name the report loads, and nothing else', () => {
  const file = buildHtmlTemplates(dir);
  expect(file).toBe(join(dir, PRECOMPILED_TEMPLATES_FILE));
  expect(readFileSync(file, 'utf8')).toBe(generatePrecompiledModule());
  expect(readdirSync(dir)).toEqual([PRECOMPILED_TEMPLATES_FILE]);
  // Again over the first: replaced whole.
  buildHtmlTemplates(dir);
  expect(readdirSync(dir)).toEqual([PRECOMPILED_TEMPLATES_FILE]);
});
