import { describe, expect, it } from 'vitest';
import { findStopSignal, isStopSignal } from './stop-signals.js';

describe('stop signals: a process stopped from outside, not crashed', () => {
  it.each(['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'])('%s stops a process from outside', (signal) => {
    expect(isStopSignal(signal)).toBe(true);
  });

  it.each(['SIGKILL', 'SIGSEGV', 'SIGABRT', null, undefined])('%s is not a stop signal', (signal) => {
    expect(isStopSignal(signal)).toBe(false);
  });

  it.each([
    [{ exitCode: null, signal: 'SIGTERM' }, 'SIGTERM'],
    [{ exitCode: null, signal: 'SIGSEGV' }, undefined],
    [{ exitCode: 143, signal: null }, 'SIGTERM'],
    [{ exitCode: 130, signal: null }, 'SIGINT'],
    [{ exitCode: 129, signal: null }, 'SIGHUP'],
    [{ exitCode: 139, signal: null }, undefined],
    [{ exitCode: 1, signal: null }, undefined],
    [{ exitCode: 128, signal: null }, undefined],
  ])('the end %j was by the stop signal %s (a shell reports its command\'s as 128+N)', (exit, expected) => {
    expect(findStopSignal(exit)).toBe(expected);
  });
});
