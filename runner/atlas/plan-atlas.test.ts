// Which versions an atlas looks at: every kind of the registry unless --stack narrows it, the
// latest patch of each minor (every release with #all), newest first, and a range measured as given.
import { describe, expect, it } from 'vitest';
import { SDK_KINDS } from '../targets/sdk/resolve-sdk-package.js';
import { listAtlasKinds, parseStackSelectors, planStack } from './plan-atlas.js';

const PUBLISHED = ['0.9.0', '1.0.0', '1.0.1', '1.1.0-beta.1', '1.1.0', '1.1.2', '1.2.0', '2.0.0-alpha.1'];

describe('parseStackSelectors', () => {
  it('takes every kind of SDK_KINDS when no --stack is given, so a kind added there is in the atlas', () => {
    expect(listAtlasKinds()).toEqual(Object.keys(SDK_KINDS));
    expect(parseStackSelectors([], false).map((s) => s.kind)).toEqual(Object.keys(SDK_KINDS));
    expect(parseStackSelectors([], true).every((s) => s.all)).toBe(true);
  });

  it.each([
    ['ts-sdk', { kind: 'ts-sdk', all: false }],
    ['ts-sdk#all', { kind: 'ts-sdk', all: true }],
    ['ts-client@2.x', { kind: 'ts-client', range: '2.x', all: false }],
    ['mastra@>=1.10 <2#all', { kind: 'mastra', range: '>=1.10 <2', all: true }],
    ['ts-sdk@1.24.3', { kind: 'ts-sdk', range: '1.24.3', all: false }],
  ])('reads --stack %s', (value, expected) => {
    expect(parseStackSelectors([value], false)).toEqual([expected]);
  });

  it.each([
    ['ts-sdkk', /unknown stack \(did you mean "ts-sdk"\?\)/],
    ['ts-sdk@not a range', /"not a range" is not an npm semver range/],
    ['ts-sdk@', /"" is not an npm semver range/],
  ])('refuses --stack %s, naming what would be valid', (value, message) => {
    expect(() => parseStackSelectors([value], false)).toThrow(message);
  });

  it('refuses a stack given twice', () => {
    expect(() => parseStackSelectors(['ts-sdk', 'ts-sdk@1.x'], false)).toThrow(/ts-sdk is given twice/);
  });
});

describe('planStack', () => {
  it('takes the latest patch of every minor, newest first, and no pre-release, walking back', () => {
    expect(planStack({ kind: 'k', all: false }, PUBLISHED)).toEqual({ kind: 'k', versions: ['1.2.0', '1.1.2', '1.0.1', '0.9.0'], releases: 'minors', walkBack: true });
  });

  it('takes every release with #all', () => {
    expect(planStack({ kind: 'k', all: true }, PUBLISHED).versions).toEqual(['1.2.0', '1.1.2', '1.1.0', '1.0.1', '1.0.0', '0.9.0']);
  });

  it('measures exactly a range, without a walk back', () => {
    expect(planStack({ kind: 'k', range: '1.x', all: false }, PUBLISHED)).toEqual({ kind: 'k', versions: ['1.2.0', '1.1.2', '1.0.1'], releases: 'minors', range: '1.x', walkBack: false });
  });
});
