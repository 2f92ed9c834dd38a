// How this CLI was started, as the words a repro line begins with, so that a line pasted into a
// shell in the run's folder runs this same tool and never one fetched from the registry (the
// package is not published: `npx mcp-error-matrix` outside a clone answers 404, or would run
// whatever someone later publishes under that name).
import { existsSync, realpathSync } from 'node:fs';
import { delimiter, isAbsolute, join, relative, resolve, sep } from 'node:path';

/** The bin name package.json declares. */
export const BIN_NAME = 'mcp-error-matrix';

/** Without a CLI invocation (the programmatic API, the vitest helper): the project's own installed copy; `--no` never downloads. */
export const DEFAULT_INVOCATION: readonly string[] = ['npx', '--no', BIN_NAME];

export interface InvocationSource {
  /** The script node ran (process.argv[1]): the bin file, or a link to it. */
  script: string | undefined;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/**
 * The words that start this CLI again from `cwd`:
 * - an installed copy under npx / `npm exec`: `npx --no mcp-error-matrix` (the same local copy; `--no` refuses to download);
 * - `mcp-error-matrix` when that name, looked up on PATH, is this very file (a global or linked install);
 *   when npm put that PATH folder there for a package script (`node_modules/.bin`), `npx --no mcp-error-matrix`;
 * - else `node <script>`: a clone (`node bin/mcp-error-matrix.js`, `npm run matrix`), the GitHub Action,
 *   a path typed by hand; relative to `cwd` when below it, else absolute.
 */
export function describeInvocation(source: InvocationSource): string[] {
  const { script, env, cwd } = source;
  if (script === undefined || script === '') return [...DEFAULT_INVOCATION];
  const absolute = resolve(cwd, script);
  // npx ran an installed copy (node_modules/.bin, or npm's own npx folder); a clone's bin file run by
  // something npx started (an `npx vitest` test run) is not that.
  if (env['npm_command'] === 'exec' && absolute.split(sep).includes('node_modules')) return [...DEFAULT_INVOCATION];
  const onPath = findOnPath(BIN_NAME, env['PATH'] ?? '');
  if (onPath !== undefined && isSameFile(onPath, absolute)) {
    const npmPutItThere = env['npm_command'] !== undefined && onPath.split(sep).slice(-3, -1).join('/') === 'node_modules/.bin';
    return npmPutItThere ? [...DEFAULT_INVOCATION] : [BIN_NAME];
  }
  const shown = relative(cwd, absolute);
  return ['node', shown !== '' && !shown.startsWith('..') && !isAbsolute(shown) ? shown : absolute];
}

/** The first `name` in the PATH folders, as a shell would find it (existence only: npm's links are executable). */
function findOnPath(name: string, path: string): string | undefined {
  for (const dir of path.split(delimiter)) {
    if (dir === '' || !isAbsolute(dir)) continue;
    const candidate = join(dir, name);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

function isSameFile(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}

/** The words that started this process's CLI. */
export function describeProcessInvocation(): string[] {
  return describeInvocation({ script: process.argv[1], env: process.env, cwd: process.cwd() });
}

