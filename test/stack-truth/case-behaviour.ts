// What of a case a recording depends on: what the mock server plays and what the client is asked to
// do, not the words that explain it. A recording is stale when a case's behaviour changed; a case
// whose description, policy, title or spec references were reworded (issue 31 put plain words where
// internal notes were cited) keeps its recordings, which hours of library deadlines made.
import { createHash } from 'node:crypto';
import type { LoadedCase } from '../../runner/cases/case-types.js';

/** The members of a case file that explain it rather than script it. */
export const PROSE_MEMBERS: readonly string[] = ['$schema', 'title', 'origin', 'description', 'policy', 'spec'];

/** SHA-256 of the case without its prose, keys in a fixed order at every depth. */
export function digestCaseBehaviour(loaded: Pick<LoadedCase, 'case'>): string {
  const behaviour = Object.fromEntries(Object.entries(loaded.case as unknown as Record<string, unknown>).filter(([key]) => !PROSE_MEMBERS.includes(key)));
  return createHash('sha256').update(canonicalJson(behaviour)).digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
