import { readdirSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SpilledParts } from './spilled-parts.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mem-spilled-parts-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('SpilledParts', () => {
  it('reads back every piece in order, multi-byte characters split across its 1 MiB reads included, then removes its file', () => {
    const parts = new SpilledParts(dir);
    const [name] = readdirSync(dir);
    expect(statSync(join(dir, name!)).mode & 0o777).toBe(0o600);
    const pieces = ['[', '€'.repeat(700_000), ',"𝄞 x"', ']'];
    pieces.forEach((piece, index) => expect(parts.push(piece)).toBe(index));
    const chunks = [...parts.read()];
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.join('')).toBe(pieces.join(''));
    expect(readdirSync(dir)).toEqual([]);
  });
});
