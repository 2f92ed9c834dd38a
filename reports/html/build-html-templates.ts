// Build step (after tsc): writes the HTML report's templates precompiled by handlebars next to
// the compiled reports/html/html-templates.js, so a run renders matrix.html with handlebars' small
// runtime instead of loading its compiler and compiling matrix.hbs each time. Without it (e.g.
// under vitest, which runs the sources), or when the templates changed since the build, they are
// compiled at run time, to the same bytes.
// Usage: node dist/reports/html/build-html-templates.js
import { renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generatePrecompiledModule, PRECOMPILED_TEMPLATES_FILE } from './html-templates.js';

/** Writes the precompiled module into `dir` (default: the compiled reports/html/ folder, beside html-templates.js); returns the file written. */
export function buildHtmlTemplates(dir = dirname(fileURLToPath(import.meta.url))): string {
  const file = join(dir, PRECOMPILED_TEMPLATES_FILE);
  // Write then rename, so a concurrent CLI start never imports a half-written file.
  writeFileSync(`${file}.tmp-${process.pid}`, generatePrecompiledModule());
  renameSync(`${file}.tmp-${process.pid}`, file);
  return file;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.stdout.write(`wrote ${buildHtmlTemplates()}\n`);
}
