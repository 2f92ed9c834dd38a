// Compiled schema validators kept on disk as ajv standalone code, one file per definition, so a
// run loads in milliseconds what ajv takes 150-200 ms to compile. The key covers everything the
// code depends on (schema bytes, ajv and ajv-formats versions, options); a new pin, upgrade or
// option change uses a new folder. Any read or write problem falls back to compiling.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { ErrorObject } from 'ajv';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type standaloneCode from 'ajv/dist/standalone/index.js';

const require = createRequire(import.meta.url);

/** A validate function as ajv compiles it or as standalone code exports it. */
export interface CachedValidate {
  (value: unknown): boolean;
  errors?: ErrorObject[] | null;
}

/** Bumped when the shape of the generated files changes. */
const FORMAT = 1;

/** The folder holding one schema's validators under `root`, keyed by everything the code depends on. */
export function getValidatorCacheDir(root: string, schemaSha256: string, ajvOptions: object): string {
  const versions = ['ajv', 'ajv-formats'].map((name) => (require(`${name}/package.json`) as { version: string }).version);
  const key = createHash('sha256').update(JSON.stringify([FORMAT, schemaSha256, versions, ajvOptions])).digest('hex');
  return join(root, key.slice(0, 32));
}

/** The cached validator for a definition, or undefined (absent, unreadable, or a name not safe as a file name). */
export function readCachedValidator(dir: string, definition: string): CachedValidate | undefined {
  if (!isSafeName(definition)) return undefined;
  let code: string;
  try {
    code = readFileSync(join(dir, `${definition}.cjs`), 'utf8');
  } catch {
    return undefined;
  }
  try {
    // Evaluated with this module's require, so ajv's runtime helpers resolve from the package
    // wherever the cache folder is.
    const module = { exports: {} as unknown };
    new Function('require', 'module', 'exports', code)(require, module, module.exports);
    return typeof module.exports === 'function' ? (module.exports as CachedValidate) : undefined;
  } catch {
    return undefined;
  }
}

/** Writes a compiled definition's standalone code (the Ajv needs `code.source`); failures are ignored. */
export function writeCachedValidator(dir: string, definition: string, ajv: Ajv2020, validate: CachedValidate): void {
  if (!isSafeName(definition)) return;
  try {
    const generate = (require('ajv/dist/standalone/index.js') as typeof standaloneCode).default;
    const code = generate(ajv, validate as Parameters<typeof generate>[1]);
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${definition}.cjs`);
    // Write then rename: a concurrent run never reads half a file.
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, code);
    renameSync(temporary, file);
  } catch {
    // A read-only or full cache only costs the next run the compile.
  }
}

/** The code expression standalone validators use for ajv-formats' formats. */
export function getFormatsCode(): unknown {
  const { _ } = require('ajv/dist/compile/codegen/index.js') as typeof import('ajv/dist/compile/codegen/index.js');
  return _`require("ajv-formats/dist/formats").fullFormats`;
}

function isSafeName(name: string): boolean {
  return /^[A-Za-z0-9_-]{1,100}$/.test(name);
}
