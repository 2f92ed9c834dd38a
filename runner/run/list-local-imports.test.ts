// The files a classifier module imports, for receipts: relative static imports, transitively,
// bounded; packages are not followed.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LOCAL_IMPORTS_MAX_FILES, listLocalImports } from './list-local-imports.js';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mem-imports-'));
  await mkdir(join(dir, 'lib', 'deep'), { recursive: true });
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('listLocalImports', () => {
  it('follows every form of relative import, transitively, each file once, and no package', async () => {
    await writeFile(
      join(dir, 'mine.mjs'),
      [
        "import { a } from './lib/a.mjs';",
        "export { b } from \"./lib/b.js\";",
        "import './lib/side-effect.mjs';",
        "const c = require('./lib/c.cjs');",
        "const d = await import('./lib/d.mjs');",
        "import { e } from './lib/e';",
        "import ajv from 'ajv';",
        "import { x } from './lib/missing.mjs';",
      ].join('\n'),
    );
    for (const name of ['b.js', 'side-effect.mjs', 'c.cjs', 'd.mjs', 'e.js']) await writeFile(join(dir, 'lib', name), '');
    await writeFile(join(dir, 'lib', 'a.mjs'), "import '../mine.mjs';\nimport { z } from './deep/z.js';\n");
    await writeFile(join(dir, 'lib', 'deep', 'z.ts'), 'export const z = 1;\n'); // a TypeScript source imported as .js
    const { files, truncated } = await listLocalImports(join(dir, 'mine.mjs'));
    expect(files.map((file) => file.slice(dir.length + 1))).toEqual(['mine.mjs', 'lib/a.mjs', 'lib/b.js', 'lib/side-effect.mjs', 'lib/c.cjs', 'lib/d.mjs', 'lib/e.js', 'lib/deep/z.ts']);
    expect(truncated).toBeUndefined();
  });

  it(`stops at ${LOCAL_IMPORTS_MAX_FILES} files and says so`, async () => {
    const count = LOCAL_IMPORTS_MAX_FILES + 5;
    await writeFile(join(dir, 'mine.mjs'), Array.from({ length: count }, (_, i) => `import './lib/f${i}.mjs';`).join('\n'));
    await Promise.all(Array.from({ length: count }, (_, i) => writeFile(join(dir, 'lib', `f${i}.mjs`), '')));
    const { files, truncated } = await listLocalImports(join(dir, 'mine.mjs'));
    expect(files).toHaveLength(LOCAL_IMPORTS_MAX_FILES);
    expect(truncated).toMatch(/more than 200 local files/);
  });

  it('does not list a folder named like a module', async () => {
    await writeFile(join(dir, 'mine.mjs'), "import './lib/dir';\n");
    await mkdir(join(dir, 'lib', 'dir', 'index.mjs'), { recursive: true }); // a folder named like a module
    const { files } = await listLocalImports(join(dir, 'mine.mjs'));
    expect(files).toEqual([join(dir, 'mine.mjs')]);
  });
});
