// results.json: the whole result model, versioned (`format`), described by schemas/results.schema.json.
import type { RunResult } from '../runner/types.js';
import { redactRunResult } from './redact-result.js';

export interface JsonOptions {
  /** Pretty-print with this indentation. @default 2 */
  indent?: number;
}

/** Serialises the run result, wire and target text redacted. */
export function render(result: RunResult, options: JsonOptions = {}): string {
  return `${JSON.stringify(redactRunResult(result), null, options.indent ?? 2)}\n`;
}
