// A starvation record another process sent (an SDK worker's answer): `unknown` until it is read
// here, field by field, into a ProcessStarvation; anything malformed is left out.
import type { ProcessStarvation, TimedProcess } from '../vocabulary/types.js';

const MEASURES = ['cpuWaitMs', 'stalledMs', 'longestStallMs'] as const;

/** Reads `{windowMs, cpuWaitMs?, stalledMs?, longestStallMs?}` as `process`'s starvation; undefined when it is not one. */
export function readProcessStarvation(value: unknown, process: TimedProcess): ProcessStarvation | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  if (!isDuration(record.windowMs)) return undefined;
  const read: ProcessStarvation = { process, windowMs: record.windowMs };
  for (const key of MEASURES) {
    const measure = record[key];
    if (isDuration(measure)) read[key] = measure;
  }
  return read;
}

function isDuration(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}
