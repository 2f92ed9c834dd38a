// Texts of the details JSON that are not pooled parts: the case texts, and each cell's command
// written with markers for its case, target and version, so commands that differ only by those
// share one part (html-details.ts).
import type { RunResult } from '../../runner/vocabulary/types.js';
import { indexCases } from '../model/index.js';
import { resolveSpecReference } from '../model/index.js';
import { sanitizeText } from '../redaction/index.js';

// Sanitized text never holds U+0001 (strip-control.ts), so these markers cannot be confused
// with it. Replaced in this order, and restored in the reverse order.
const REPRO_MARKS = { case: '\u0001c', target: '\u0001t', version: '\u0001v' } as const;

export function markRepro(repro: string, caseId: string, target: string, version: string): string {
  let marked = repro;
  if (caseId) marked = marked.split(caseId).join(REPRO_MARKS.case);
  if (target) marked = marked.split(target).join(REPRO_MARKS.target);
  return marked.split(version).join(REPRO_MARKS.version);
}

/** The cell's command from its marked part, as matrix.client.js restores it. */
export function restoreRepro(marked: string, caseId: string, target: string, version: string): string {
  return marked.split(REPRO_MARKS.version).join(version).split(REPRO_MARKS.target).join(target).split(REPRO_MARKS.case).join(caseId);
}

/** Case texts by sanitized id, with each specification reference's link and title. */
export function describeCases(result: Pick<RunResult, 'cases'>): Record<string, unknown> {
  const cases: Record<string, unknown> = {};
  for (const [id, c] of indexCases(result)) {
    cases[sanitizeText(id)] = {
      title: sanitizeText(c.title),
      layer: sanitizeText(c.layer),
      origin: sanitizeText(c.origin),
      file: sanitizeText(c.file),
      description: sanitizeText(c.description ?? ''),
      expectation: sanitizeText(c.expectation ?? ''),
      policy: sanitizeText(c.policy ?? ''),
      // Only http(s) links become anchors; anything else is shown as text. A reference without its
      // own link gets the page its alias names, at the pinned commit, and that page's title.
      spec: (c.spec ?? []).map((s) => {
        const known = resolveSpecReference(s.ref);
        const url = s.url && /^https?:\/\//i.test(s.url) ? s.url : (known?.url ?? '');
        return { ref: sanitizeText(s.ref), url, title: known?.title ?? '', version: s.version ?? '' };
      }),
    };
  }
  return cases;
}
