// Golden report files are reviewed, not generated into truth. Locally a missing golden is
// written by toMatchFileSnapshot (then read, reviewed and committed); under CI=true it is never
// written: a missing golden fails with a message, so a green CI run always compared with a
// reviewed file. Each golden test also asserts the facts a reader relies on by itself.
import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { isCi } from './requirements.js';

/** Compares text with a golden file given as a URL (e.g. `new URL('./__golden__/x', import.meta.url)`). */
export async function expectGolden(actual: string, golden: URL, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const file = fileURLToPath(golden);
  if (!existsSync(file)) {
    const name = relative(process.cwd(), file);
    if (isCi(env)) {
      throw new Error(`golden file ${name} is missing: under CI=true a golden is never written. Run this test locally (it writes the file), review the file, and commit it.`);
    }
  }
  await expect(actual).toMatchFileSnapshot(file);
}
