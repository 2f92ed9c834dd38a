// The one sentence every format puts where a reader looks first when a run had no schema checks
// (`--no-schemas`): the summary line, summary.md, the TAP header and the HTML header.
import type { RunResult } from '../../runner/vocabulary/types.js';

export const SCHEMAS_OFF_NOTICE = 'Schema checks off (--no-schemas): no message was checked against the official schemas.';

/** Whether the run ran without schema checks (results.json `schemas: null`). */
export function areSchemasOff(result: Pick<RunResult, 'schemas'>): boolean {
  return result.schemas === null;
}
