// A command client's #timeout= and #versions= options are not part of its baseline key: raising
// the timeout (or narrowing the versions) keeps its known failures known.
import { describe, expect, it } from 'vitest';
import { makeCell } from '../../test/make-run-result.js';
import { applyBaselineToCell, validateBaselineEntries } from './apply-baseline.js';
import { getBaselineTarget } from './baseline-target.js';
import { parseBaselineText, type Baseline } from './load-baseline.js';
import { buildBaselineEntries } from './write-baseline.js';

const parse = (text: string): Baseline => ({ ...parseBaselineText(text, 'b.yaml'), sha256: '0'.repeat(64) });

describe('the target name a baseline keys on', () => {
  it.each([
    ['command:node client.mjs #timeout=9000', 'command:node client.mjs'],
    ['command:node client.mjs #versions=2025-11-25,2026-07-28', 'command:node client.mjs'],
    ['command:node client.mjs #versions=2025-11-25&timeout=9000', 'command:node client.mjs'],
    ['command:node client.mjs #timeout=9000&persistent=2', 'command:node client.mjs #persistent=2'],
    ['command:node client.mjs #persistent', 'command:node client.mjs #persistent'],
    ['command:node client.mjs', 'command:node client.mjs'],
    // Not an option comment: part of the command line.
    ['command:node client.mjs # timeout is long', 'command:node client.mjs # timeout is long'],
    ['reference', 'reference'],
    ['ts-sdk@1.32.2', 'ts-sdk@1.32.2'],
  ])('%s is keyed as %s', (target, key) => {
    expect(getBaselineTarget(target)).toBe(key);
  });

  it('an entry written without the options applies to the client run with a #timeout', () => {
    const baseline = parse('- { target: "command:node client.mjs", case: c, reason: known }\n');
    const cell = makeCell({ case: 'c', target: 'command:node client.mjs #timeout=9000', status: 'fail' });
    expect(applyBaselineToCell(baseline, cell).status).toBe('xfail');
    expect(() => validateBaselineEntries(baseline, { cases: [{ id: 'c', versions: [cell.protocolVersion] }], runTargets: [cell.target], otherKnownTargets: [] })).not.toThrow();
  });

  it('an entry written by an older run with the options still applies after the #timeout changed', () => {
    const baseline = parse('- { target: "command:node client.mjs #timeout=5000", case: c, reason: known }\n');
    const cell = makeCell({ case: 'c', target: 'command:node client.mjs #versions=2025-11-25&timeout=9000', status: 'fail', protocolVersion: '2025-11-25' });
    expect(applyBaselineToCell(baseline, cell).status).toBe('xfail');
  });

  it('--write-baseline writes the key without the options', () => {
    const cell = makeCell({ case: 'c', target: 'command:node client.mjs #timeout=9000', status: 'fail' });
    expect(buildBaselineEntries([cell], undefined).map((entry) => entry.target)).toEqual(['command:node client.mjs']);
  });
});
