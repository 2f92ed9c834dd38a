// Schema validators as ajv standalone code, kept in the user cache so a run loads in
// milliseconds what ajv takes most of a second to compile. The evidence chain holds because
// the code is never trusted for being in the cache: every definition's code has its SHA-256
// pinned in schemas/validator-code-pins.json (shipped with the tool and hashed into every
// receipt), each load checks the bytes against that pin, and a file that differs (tampered,
// truncated, another ajv) is regenerated and replaced. The code of one definition is generated
// in a fresh Ajv, so it does not depend on what else was compiled: the same bytes everywhere.
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { ErrorObject } from 'ajv';
import type standaloneCode from 'ajv/dist/standalone/index.js';
import type { FormatsPlugin } from 'ajv-formats';
import { readUserFileSync } from '../io/read-user-file.js';
import { packagePath } from '../util/package-paths.js';

// ajv is CommonJS and costly to load: required only when something must be compiled.
const require = createRequire(import.meta.url);

/**
 * strict: false because the upstream schema uses union types (RequestId) and annotation-only
 * keywords that strict mode rejects; verbose: true gives errors their data for format-errors.ts.
 * validateSchema: false because the bytes are SHA-256-pinned (load-schemas.ts): checking them
 * against the draft 2020-12 meta-schema compiled that meta-schema and cost about 1 s per run.
 */
export const AJV_OPTIONS = { allErrors: true, strict: false, verbose: true, validateSchema: false } as const;

/** The name the schema is registered under inside each Ajv instance. */
export const SCHEMA_KEY = 'mcp-schema.json';

/** Where the definitions live: draft-07 `definitions`, draft 2020-12 `$defs`. */
export type DefsContainer = 'definitions' | '$defs';

/** A validate function as ajv compiles it or as standalone code exports it. */
export interface ValidateCode {
  (value: unknown): boolean;
  errors?: ErrorObject[] | null;
}

/** What judged a definition: its code's SHA-256 and where the code came from. */
export interface UsedValidatorCode {
  definition: string;
  sha256: string;
  /** `cache`: read and checked against the pin; `generated`: generated now (and cached). */
  source: 'cache' | 'generated';
  /** The cache file holding the code; absent when it could not be written (a read-only cache). */
  path?: string;
}

/** The pins file: per schema SHA-256, each definition's code SHA-256, for one ajv/ajv-formats pair. */
export interface ValidatorCodePins {
  ajv: string;
  ajvFormats: string;
  schemas: Record<string, { version: string; codes: Record<string, string> }>;
}

/** The pins file inside the package. */
export const VALIDATOR_CODE_PINS_FILE = 'schemas/validator-code-pins.json';

const CODE_MAX_BYTES = 4 * 1024 * 1024;

let pinsCache: ValidatorCodePins | null | undefined;

/** The pinned code hashes, or null when they do not apply (absent, or another ajv is installed). */
export function readValidatorCodePins(): ValidatorCodePins | null {
  if (pinsCache !== undefined) return pinsCache;
  try {
    const pins = JSON.parse(readFileSync(packagePath(VALIDATOR_CODE_PINS_FILE), 'utf8')) as ValidatorCodePins;
    pinsCache = pins.ajv === getInstalledVersion('ajv') && pins.ajvFormats === getInstalledVersion('ajv-formats') ? pins : null;
  } catch {
    pinsCache = null;
  }
  return pinsCache;
}

/** A new Ajv of the schema's dialect holding the schema, with formats; `source` keeps code for standalone. */
export function createAjv(schema: unknown, container: DefsContainer, source = false) {
  const options = { ...AJV_OPTIONS, ...(source ? { code: { source: true } } : {}) };
  const ajv = container === '$defs' ? new (require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js')).Ajv2020(options) : new (require('ajv') as typeof import('ajv')).Ajv(options);
  // ajv-formats also names its formats as a require() the standalone code runs.
  (require('ajv-formats') as FormatsPlugin)(ajv);
  ajv.addSchema(schema as object, SCHEMA_KEY);
  return ajv;
}

/** The standalone CommonJS code of one definition, generated in a fresh Ajv (deterministic). */
export function generateDefinitionCode(schema: unknown, container: DefsContainer, definition: string): string {
  const ajv = createAjv(schema, container, true);
  const validate = ajv.getSchema(`${SCHEMA_KEY}#/${container}/${definition}`);
  if (!validate) throw new Error(`ajv could not resolve #/${container}/${definition}`);
  const generate = (require('ajv/dist/standalone/index.js') as typeof standaloneCode).default;
  return generate(ajv, validate);
}

/** Hex SHA-256 of code text. */
export function hashCode(code: string): string {
  return createHash('sha256').update(code).digest('hex');
}

/** Runs standalone code with this package's require (its ajv runtime and formats), never from where the file lies. */
export function evaluateCode(code: string): ValidateCode {
  const module = { exports: {} as unknown };
  new Function('require', 'module', 'exports', code)(require, module, module.exports);
  if (typeof module.exports !== 'function') throw new Error('standalone validator code exports no function');
  return module.exports as ValidateCode;
}

/** The cache file of a definition's code: keyed by the pinned code hash, so a new pin never reuses old code. */
export function getValidatorCodePath(cacheDir: string, definition: string, codeSha256: string): string {
  return join(cacheDir, codeSha256.slice(0, 2), `${codeSha256.slice(0, 32)}-${definition.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 100)}.cjs`);
}

/**
 * The validator of a pinned definition from the cache, checked against its pin; a missing or
 * mismatching file is regenerated, checked, and written back. Undefined when the definition has
 * no pin or the code generated here does not match it (the caller compiles in-process).
 */
export function loadPinnedValidator(
  cacheDir: string,
  schemaSha256: string,
  schema: unknown,
  container: DefsContainer,
  definition: string,
): { validate: ValidateCode; used: UsedValidatorCode } | undefined {
  const pin = readValidatorCodePins()?.schemas[schemaSha256]?.codes[definition];
  if (pin === undefined) return undefined;
  const path = getValidatorCodePath(cacheDir, definition, pin);
  const cached = readCode(path);
  if (cached !== undefined && hashCode(cached) === pin) return { validate: evaluateCode(cached), used: { definition, sha256: pin, source: 'cache', path } };
  const code = generateDefinitionCode(schema, container, definition);
  if (hashCode(code) !== pin) return undefined;
  const written = writeCode(path, code);
  return { validate: evaluateCode(code), used: { definition, sha256: pin, source: 'generated', ...(written ? { path } : {}) } };
}

function readCode(path: string): string | undefined {
  try {
    return readUserFileSync(path, { maxBytes: CODE_MAX_BYTES, what: 'validator code', noFollow: true }).toString('utf8');
  } catch {
    return undefined; // absent, not a regular file or too big: regenerated
  }
}

// Written then renamed: a concurrent run never reads half a file. A read-only or full cache
// only costs the next run the generation.
function writeCode(path: string, code: string): boolean {
  const temporary = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(temporary, code, { flag: 'wx' });
    renameSync(temporary, path);
    return true;
  } catch {
    try {
      unlinkSync(temporary);
    } catch {
      // never created
    }
    return false;
  }
}

function getInstalledVersion(name: string): string | undefined {
  try {
    return (require(`${name}/package.json`) as { version: string }).version;
  } catch {
    return undefined;
  }
}
