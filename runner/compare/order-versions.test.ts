// The rule every ordering of versions follows (issue 29 item 2, issue 30): npm's semver order.
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { compareVersions } from './order-versions.js';

const sortVersions = (versions: string[]) => [...versions].sort(compareVersions);

describe('versions order as npm orders them', () => {
  it('orders multi-digit minors and patches by number, not as text (1.9 < 1.10, 1.2.9 < 1.2.10)', () => {
    expect(sortVersions(['1.10.0', '1.9.0', '1.2.10', '1.2.9', '10.0.0', '2.0.0'])).toEqual(['1.2.9', '1.2.10', '1.9.0', '1.10.0', '2.0.0', '10.0.0']);
  });

  it('puts a pre-release before its release and after the release before it (1.9 < 1.10 < 1.10.1-beta < 1.10.1)', () => {
    expect(sortVersions(['1.10.1', '1.10.1-beta', '1.10', '1.9'])).toEqual(['1.9', '1.10', '1.10.1-beta', '1.10.1']);
  });

  it('orders pre-release identifiers as npm does: numbers by value, numbers before words, fewer fields first', () => {
    const npmOrder = ['1.0.0-alpha', '1.0.0-alpha.1', '1.0.0-alpha.beta', '1.0.0-beta', '1.0.0-beta.2', '1.0.0-beta.11', '1.0.0-rc.1', '1.0.0'];
    const shuffled = [npmOrder[5]!, npmOrder[0]!, npmOrder[7]!, npmOrder[3]!, npmOrder[1]!, npmOrder[6]!, npmOrder[2]!, npmOrder[4]!];
    expect(sortVersions(shuffled)).toEqual(npmOrder);
    // The same order npm's own semver library gives.
    expect(sortVersions(shuffled)).toEqual(semver.sort([...shuffled]));
  });

  it('reads a version with fewer than three numbers as the missing ones zero, so 1.10 is newer than 1.9.5', () => {
    expect(compareVersions('1.10', '1.9.5')).toBeGreaterThan(0);
    expect(compareVersions('2', '1.99.99')).toBeGreaterThan(0);
    expect(compareVersions('v1.2.3', '1.2.4')).toBeLessThan(0);
  });

  it('is a total order: no-version text sorts after every version, equal versions by their spelling', () => {
    expect(sortVersions(['latest', '1.0.0', 'beta', '0.9.0'])).toEqual(['0.9.0', '1.0.0', 'beta', 'latest']);
    expect(sortVersions(['1.9.0', '1.9'])).toEqual(['1.9', '1.9.0']);
    expect(compareVersions('1.2.3', '1.2.3')).toBe(0);
    // Antisymmetric over a mixed list (a sort comparator that is not gives an order that depends on the input's).
    const mixed = ['1.10', '1.9', 'x', '1.10.0-rc.1', '1.10.0', '1.10.0+build.1', 'v1.9.1'];
    for (const a of mixed) for (const b of mixed) expect(Math.sign(compareVersions(a, b)) + Math.sign(compareVersions(b, a))).toBe(0);
    expect(sortVersions(mixed)).toEqual(sortVersions([...mixed].reverse()));
  });
});
