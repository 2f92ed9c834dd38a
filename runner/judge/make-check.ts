// The one constructor every judged expectation goes through.
import type { Check, CheckLevel, Consequence } from '../vocabulary/types.js';

/** Builds a check whose message says what was expected and what happened. */
export function makeCheck(options: {
  id: string;
  level: CheckLevel;
  expected: unknown;
  actual: unknown;
  passed?: boolean;
  message?: string;
  exchange?: number;
  /** What the failure costs the caller (grade-consequence.ts); kept only on a failed check. */
  consequence?: Consequence | undefined;
}): Check {
  const passed = options.passed ?? isSameValue(options.expected, options.actual);
  const message =
    options.message ?? (passed ? `${options.id}: ${show(options.actual)}` : `${options.id}: expected ${show(options.expected)}, got ${show(options.actual)}`);
  return {
    id: options.id,
    level: options.level,
    passed,
    expected: options.expected,
    actual: options.actual,
    message,
    ...(options.exchange === undefined ? {} : { exchange: options.exchange }),
    ...(options.consequence === undefined || passed ? {} : { consequence: options.consequence }),
  };
}

function isSameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function show(value: unknown): string {
  if (value === undefined) return 'nothing';
  return typeof value === 'string' ? value : JSON.stringify(value);
}
