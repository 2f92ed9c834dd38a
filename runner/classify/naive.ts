// The negative control: a classifier that only looks at the HTTP status, as a client that
// checks `response.ok` and nothing else would. The matrix must show it failing.
import type { ClassifierInput, Verdict } from '../vocabulary/types.js';
import { createVerdict } from './verdict.js';

/** Concludes from the status alone: 2xx is success, anything else an HTTP error. */
export function classifyNaive(input: ClassifierInput): Verdict {
  if (!(input.status > 0)) return createVerdict('NO_RESPONSE', 'no status line');
  if (input.status >= 200 && input.status <= 299) return createVerdict('TOOL_SUCCESS', `HTTP status ${input.status}`);
  return createVerdict('HTTP_ERROR', `HTTP status ${input.status}`, { status: input.status });
}
