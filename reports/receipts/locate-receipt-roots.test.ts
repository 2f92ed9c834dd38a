// Where verify looks for a named root of receipts@2. The recorded location comes from untrusted
// receipts: used only when absolute and present here, and quoted only in part.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRootLocator } from './locate-receipt-roots.js';

let here: string;
beforeAll(async () => {
  here = await mkdtemp(join(tmpdir(), 'mem-roots-'));
});
afterAll(async () => {
  await rm(here, { recursive: true, force: true });
});

describe('createRootLocator', () => {
  it('uses a recorded location only when it is absolute and exists on this machine', () => {
    const absent = join(here, 'gone');
    const locate = createRootLocator({ found: { what: 'w', at: here }, gone: { what: 'w', at: absent }, relative: { what: 'w', at: '..' } }, {});
    expect(locate('found')).toEqual({ dir: here });
    expect(locate('gone')).toEqual({ reason: `root "gone" (w) is not at ${absent} on this machine; pass --root gone=DIR` });
    // ".." exists from any working folder, but a relative location is no location.
    expect(locate('relative')).toEqual({ reason: 'root "relative" (w) has no recorded location; pass --root relative=DIR' });
  });

  it('quotes at most 120 characters of what a root is and 200 of where it was', () => {
    const what = 'w'.repeat(300);
    const at = `/${'a'.repeat(300)}`;
    const { reason } = createRootLocator({ long: { what, at } }, {})('long') as { reason: string };
    expect(reason).toBe(`root "long" (${'w'.repeat(120)}) is not at ${at.slice(0, 200)} on this machine; pass --root long=DIR`);
  });

  it('prefers --root NAME=DIR, then the first fallback that exists, over nothing', () => {
    const locate = createRootLocator({}, { roots: { cases: '/given' }, fallbackRoots: { schemas: [join(here, 'nope'), here] } });
    expect(locate('cases')).toEqual({ dir: '/given' });
    expect(locate('schemas')).toEqual({ dir: here });
    expect(locate('constructor')).toEqual({ reason: 'root "constructor" has no recorded location; pass --root constructor=DIR' });
  });
});
