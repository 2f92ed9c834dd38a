// Narrows the case table by `--case` selectors (exact ids or globs such as `sse-*`).
import { createRequire } from 'node:module';
import type picomatchType from 'picomatch';
import { UsageError } from '../util/errors.js';
import { closest } from './case-errors.js';
import type { LoadedCase } from './case-types.js';

/** Keeps the cases matched by any selector (all when there are none); an unmatched selector is a usage error. */
export function selectCases(cases: LoadedCase[], selectors: string[]): LoadedCase[] {
  if (selectors.length === 0) return cases;
  const ids = cases.map((item) => item.case.id);
  // Required here, not imported: most runs pass no --case, and start-up time is most of a small run.
  const picomatch = createRequire(import.meta.url)('picomatch') as typeof picomatchType;
  const matchers = selectors.map((selector) => ({ selector, isMatch: picomatch(selector) }));
  for (const { selector, isMatch } of matchers) {
    if (!ids.some((id) => isMatch(id))) {
      const guess = closest(selector, ids);
      throw new UsageError(`--case ${selector}: no case matches${guess ? ` (did you mean "${guess}"?)` : ''}; \`mcp-error-matrix list\` shows the ids`);
    }
  }
  return cases.filter((item) => matchers.some(({ isMatch }) => isMatch(item.case.id)));
}
