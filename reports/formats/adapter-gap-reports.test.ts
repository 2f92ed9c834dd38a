// An adapter gap (a built-in adapter met what its library did and has no row for it) is our gap,
// not the client's: every report names it as its own kind of error, with the library's words.
import { describe, expect, it } from 'vitest';
import { makeCell, makeRunResult } from '../../test/make-run-result.js';
import { createProgress } from '../../runner/commands/progress.js';
import { countFailures, formatFailureLine } from '../model/index.js';
import { render as renderJunit } from './junit.js';
import { render as renderMarkdown } from './markdown.js';
import { render as renderTap } from './tap.js';

const REASON = 'adapter gap (not measured: the adapter cannot read what the library did): call 1: ai-sdk has no mapping for a thrown MCPClientError: Attempted to send a request from a closed client';
const gap = makeCell({
  case: 'wrong-response-id',
  target: 'ai-sdk@2.0.99',
  status: 'error',
  reason: REASON,
  errorKind: 'adapter-gap',
  checks: [],
  actual: [null],
  observed: { calls: [{ threw: { class: 'MCPClientError', name: 'MCPClientError', message: 'Attempted to send a request from a closed client' } }], toolCallsSent: 1 },
});
const result = makeRunResult({ targets: [{ name: 'ai-sdk@2.0.99', kind: 'client' }], cells: [gap] });

describe('an adapter-gap cell in the reports', () => {
  it('counts as an adapter gap in every per-target line, not as a consequence of the client', () => {
    expect(formatFailureLine(countFailures(result)[0]!)).toBe('1 unexpected: 1 adapter gap · 0 known');
  });

  it('is "error: adapter-gap" in TAP, with the library\'s words in the diagnostics', () => {
    const tap = renderTap(result);
    expect(tap).toContain('not ok 1 - wrong-response-id [2025-11-25] (error: adapter-gap)');
    expect(tap).toContain('Attempted to send a request from a closed client');
  });

  it('has the kind as its JUnit error type and the reason as its message', () => {
    const xml = renderJunit(result);
    expect(xml).toMatch(/<error message="adapter gap \(not measured[^"]*MCPClientError: Attempted to send a request from a closed client" type="adapter-gap"\/>/);
  });

  it('is listed as "error (adapter-gap)" in the Markdown summary', () => {
    expect(renderMarkdown(result)).toContain('— error (adapter-gap): adapter gap (not measured');
  });

  it('is counted by kind on the summary line', () => {
    let stderr = '';
    const progress = createProgress({ stdout: () => {}, stderr: (text) => void (stderr += text), cwd: '..', env: {}, isTTY: false }, { quiet: false });
    progress.done(result);
    expect(stderr).toBe('1 cells: 0 pass, 0 fail, 0 non_strict, 0 skip, 1 error (1 adapter-gap), 0 xfail, 0 xpass\n');
  });
});
