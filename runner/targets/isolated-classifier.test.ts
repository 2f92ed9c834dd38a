import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ClassifierInput } from '../vocabulary/types.js';
import { IsolatedClassifier } from './isolated-classifier.js';
import { declareLoadedByPath } from '../../test/loaded-by-path.js';

// The worker thread each classifier runs in, started by path.
declareLoadedByPath(() => import('./classifier-worker.mjs' as string));

const work = mkdtempSync(join(tmpdir(), 'mem-isolated-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

// Answers after 300 ms: long enough for a call to be stopped while another waits behind it.
const slowModule = join(work, 'slow.mjs');
writeFileSync(slowModule, `export default async function classify(input) {
  await new Promise((resolve) => setTimeout(resolve, 300));
  return { outcome: 'TOOL_SUCCESS', layer: 'application', detail: String(input.status) };
}
`);

// Reports what it received as bytes: a classifier module gets `bodyBytes` as a Uint8Array too.
const bytesModule = join(work, 'bytes.mjs');
writeFileSync(bytesModule, `export default function classify(input) {
  const kind = input.bodyBytes instanceof Uint8Array ? 'Uint8Array' : typeof input.bodyBytes;
  return { outcome: 'TOOL_SUCCESS', layer: 'application', detail: kind + ' ' + Array.from(input.bodyBytes.subarray(0, 3)).join(',') };
}
`);

const input = (status: number) => ({ status, headers: {}, contentType: 'application/json', body: '{}', expectedId: 1 }) as unknown as ClassifierInput;

describe('IsolatedClassifier', () => {
  it('stopping one cell fails only that cell’s call; the calls of other cells on the same worker still answer', async () => {
    const classifier = new IsolatedClassifier(slowModule);
    await classifier.load();
    const stopped = new AbortController();
    const first = classifier.call(input(1), { deadlineMs: 5000, signal: stopped.signal });
    const second = classifier.call(input(2), { deadlineMs: 5000, signal: new AbortController().signal });
    setTimeout(() => stopped.abort(), 50);
    await expect(first).rejects.toThrow(/the cell was stopped/);
    await expect(second).resolves.toMatchObject({ outcome: 'TOOL_SUCCESS', detail: '2' });
    await classifier.close();
  });

  it('hands the module bodyBytes as a Uint8Array (structured clone), BOM included', async () => {
    const classifier = new IsolatedClassifier(bytesModule);
    await classifier.load();
    const withBytes = { ...input(200), bodyBytes: new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d]) } as ClassifierInput;
    await expect(classifier.call(withBytes, { deadlineMs: 5000, signal: new AbortController().signal })).resolves.toMatchObject({ detail: 'Uint8Array 239,187,191' });
    await classifier.close();
  });
});
