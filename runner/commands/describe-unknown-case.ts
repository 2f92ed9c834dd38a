// The error for a case id that is not in the table (`show`, `serve`): the nearest id when one is a
// typo away; else the ids that contain what was typed (`show reset`); else says that none is near
// and how to search the table, so the user never gets a bare "no such case".
import { closest } from '../cases/case-errors.js';
import { UsageError } from '../util/errors.js';

/** At most this many ids are suggested by what they contain. */
const MAX_CONTAINING = 5;

/** A UsageError for `<command> <id>` naming the closest ids of `ids`. */
export function describeUnknownCase(command: string, id: string, ids: readonly string[]): UsageError {
  return new UsageError(`${command} ${id}: no such case${suggestCaseIds(id, ids)}`);
}

/** What to try instead of `id`, as the rest of the message: a did-you-mean, the ids containing it, or how to search. */
export function suggestCaseIds(id: string, ids: readonly string[]): string {
  const list = '`mcp-error-matrix list` shows the ids';
  const guess = closest(id, [...ids]);
  if (guess !== undefined) return ` (did you mean "${guess}"?); ${list}`;
  const needle = id.toLowerCase();
  const containing = needle.length >= 3 ? ids.filter((candidate) => candidate.toLowerCase().includes(needle)) : [];
  if (containing.length === 1) return ` (did you mean "${containing[0]}"?); ${list}`;
  if (containing.length > 1) {
    const shown = containing.slice(0, MAX_CONTAINING).map((candidate) => `"${candidate}"`).join(', ');
    const more = containing.length > MAX_CONTAINING ? ` (${containing.length - MAX_CONTAINING} more contain "${id}")` : '';
    return ` (did you mean one of ${shown}?)${more}; ${list}`;
  }
  return `; no case id is a typo away from it or contains it; \`mcp-error-matrix list\` shows all ${ids.length} (\`--layer\` narrows them)`;
}
