// The local files a module imports, for receipts: a bounded walk of its relative static imports
// (`import … from './x.js'`, `export … from '../y.js'`, `import './z.js'`, `require('./w.cjs')`,
// `import('./v.js')` with a literal). Bare specifiers (packages) are not followed: a package is
// named by its version, not its files. Comments are not parsed away, so an import written in a
// comment may add a file: receipts then cover one file more, never one less.
import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { readUserText } from '../io/read-user-file.js';

/** Files followed at most (the module included), and bytes read of each. */
export const LOCAL_IMPORTS_MAX_FILES = 200;
export const LOCAL_IMPORT_MAX_BYTES = 4 * 1024 * 1024;

const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)(['"])(\.{1,2}\/[^'"\n]*)\1/g;
const EXTENSIONS = ['', '.js', '.mjs', '.cjs', '.ts', '.mts', '.cts', '/index.js', '/index.mjs', '/index.ts'];

export interface LocalImports {
  /** Every file reached, the module first, each once. */
  files: string[];
  /** Why the walk stopped early, when it did (a file over the cap, too many files). */
  truncated?: string;
}

/** The module and the local files it imports, transitively, in the order first reached. */
export async function listLocalImports(moduleFile: string): Promise<LocalImports> {
  const seen = new Set<string>([resolve(moduleFile)]);
  const queue = [resolve(moduleFile)];
  let truncated: string | undefined;
  while (queue.length > 0) {
    const file = queue.shift()!;
    let text: string;
    try {
      text = await readUserText(file, { maxBytes: LOCAL_IMPORT_MAX_BYTES, what: 'module' });
    } catch (error) {
      truncated ??= `${file} not read: ${(error as Error).message}`;
      continue;
    }
    for (const match of text.matchAll(SPECIFIER)) {
      const found = resolveSpecifier(dirname(file), match[2]!);
      if (found === undefined || seen.has(found)) continue;
      if (seen.size >= LOCAL_IMPORTS_MAX_FILES) {
        truncated ??= `more than ${LOCAL_IMPORTS_MAX_FILES} local files; the rest are not listed`;
        break;
      }
      seen.add(found);
      queue.push(found);
    }
  }
  return { files: [...seen], ...(truncated === undefined ? {} : { truncated }) };
}

/** The file a relative specifier names: as written, with a module extension, or `.ts` for a `.js` written in TypeScript. */
function resolveSpecifier(fromDir: string, specifier: string): string | undefined {
  const base = resolve(fromDir, specifier.split(/[?#]/)[0]!);
  const candidates = [...EXTENSIONS.map((ext) => base + ext), ...(/\.(m|c)?js$/.test(base) ? [base.replace(/js$/, 'ts')] : [])];
  return candidates.find(isFile);
}

function isFile(path: string): boolean {
  try {
    return existsSync(path) && statSync(path).isFile();
  } catch {
    return false;
  }
}
