import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { getDefaultConcurrency, parseRunOptions } from './options.js';

describe('the default concurrency', () => {
  const cores = availableParallelism();

  it('is 12 per core (at least 24) for targets that answer cells from a worker or in-process', () => {
    expect(getDefaultConcurrency([{}, { startsProcessPerCell: false }])).toBe(Math.max(24, cores * 12));
  });

  it('stays at 4 per core (at least 8) when any target starts a process per cell', () => {
    expect(getDefaultConcurrency([{}, { startsProcessPerCell: true }])).toBe(Math.max(8, cores * 4));
  });

  it('stays at 4 per core (at least 8) when any target says its cells are CPU-bound (mastra)', () => {
    expect(getDefaultConcurrency([{}, { cpuBoundCells: true }])).toBe(Math.max(8, cores * 4));
    expect(getDefaultConcurrency([{ cpuBoundCells: false }])).toBe(Math.max(24, cores * 12));
  });

  it('is left to the targets unless --concurrency is given', () => {
    expect(parseRunOptions([], ['reference']).concurrency).toBeUndefined();
    expect(parseRunOptions(['--concurrency', '3'], ['reference']).concurrency).toBe(3);
  });
});
