import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { expectGolden } from './expect-golden.js';

const work = mkdtempSync(join(tmpdir(), 'mem-golden-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

it('under CI=true a missing golden fails, naming the file and what to do, and is not written', async () => {
  const file = join(work, 'missing-golden.md');
  await expect(expectGolden('# report\n', pathToFileURL(file), { CI: 'true' })).rejects.toThrow(
    /golden file .*missing-golden\.md is missing: under CI=true a golden is never written\. Run this test locally .* review the file, and commit it\./,
  );
  expect(existsSync(file)).toBe(false);
});
