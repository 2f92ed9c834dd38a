// The previous atlas, read back for reuse and for `--since` (issue 32 item 3). A site is trusted
// only as far as its own receipts go: every file must still have the SHA-256 SHA256SUMS and
// receipts.json give it, and no file may be unlisted (verify.ts, outputs only: the inputs were read
// where it was made). A site that does not verify is refused, naming the files, never reused in
// part. Then atlas.json must be valid against schemas/atlas.schema.json. What the receipts cannot
// prove is who wrote them: someone who rewrites results and receipts together goes unnoticed
// (README § Receipts), as for any report folder.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { verifyReport } from '../../reports/receipts/index.js';
import { describeSchemaErrors } from '../cases/case-errors.js';
import { RunnerError } from '../util/errors.js';
import { readUserText, UserFileError } from '../io/read-user-file.js';
import { packagePath } from '../util/package-paths.js';
import { ATLAS_FORMAT, ATLAS_INDEX_FILE, type AtlasIndex, type AtlasSettings } from './atlas-types.js';

/** atlas.json holds a compact line per cell: 100,000 cells are about 10 MB. */
export const ATLAS_INDEX_MAX_BYTES = 256 * 1024 * 1024;
/** Mismatching files named in the refusal; the rest are counted. */
const SHOWN_MISMATCHES = 10;

/** A previous atlas that cannot be used: tampered with, or not an atlas of this format. */
export class AtlasStoreError extends RunnerError {
  constructor(message: string) {
    super('MEM_ATLAS_STORE', message);
  }
}

export interface PreviousAtlas {
  dir: string;
  index: AtlasIndex;
}

let validator: ValidateFunction | undefined;

function getAtlasValidator(): ValidateFunction {
  validator ??= new Ajv2020({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true }).compile(JSON.parse(readFileSync(packagePath('schemas', 'atlas.schema.json'), 'utf8')) as object);
  return validator;
}

/** Whether `dir` holds an atlas (an atlas.json at its root); a missing folder or a run's report folder holds none. */
export function holdsAtlas(dir: string): boolean {
  const file = join(dir, ATLAS_INDEX_FILE);
  return existsSync(file) && statSync(file, { throwIfNoEntry: false })?.isFile() === true;
}

/**
 * Reads the atlas at `dir` after verifying it against its receipts; `shownAs` is how messages name
 * it (the flag's value), `remedy` what the user can do instead. Throws AtlasStoreError when it does
 * not verify or its atlas.json is not valid.
 */
export async function readPreviousAtlas(dir: string, shownAs: string, remedy: string): Promise<PreviousAtlas> {
  const root = resolve(dir);
  const verified = await verifyReport(root, { outputsOnly: true });
  if (!verified.ok) {
    const shown = verified.mismatches.slice(0, SHOWN_MISMATCHES).map((m) => `\n  - ${m.path}: expected ${m.expected}, found ${m.actual}`);
    const more = verified.mismatches.length > SHOWN_MISMATCHES ? `\n  - and ${verified.mismatches.length - SHOWN_MISMATCHES} more` : '';
    throw new AtlasStoreError(
      `${shownAs}: this atlas does not match its own receipts, so nothing in it is trusted or reused (\`mcp-error-matrix verify ${shownAs}\` shows the same):${shown.join('')}${more}\n${remedy}`,
    );
  }
  let text: string;
  try {
    text = await readUserText(join(root, ATLAS_INDEX_FILE), { maxBytes: ATLAS_INDEX_MAX_BYTES, what: ATLAS_INDEX_FILE });
  } catch (error) {
    if (error instanceof UserFileError) throw new AtlasStoreError(`${shownAs}/${ATLAS_INDEX_FILE}: ${error.detail}\n${remedy}`);
    throw error;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new AtlasStoreError(`${shownAs}/${ATLAS_INDEX_FILE}: not JSON (${(error as Error).message})\n${remedy}`);
  }
  const format = (value as { format?: unknown } | null)?.format;
  if (format !== ATLAS_FORMAT) {
    throw new AtlasStoreError(`${shownAs}/${ATLAS_INDEX_FILE}: format ${JSON.stringify(format ?? null)?.slice(0, 80)}, expected "${ATLAS_FORMAT}" (an atlas of another version of this tool)\n${remedy}`);
  }
  const validate = getAtlasValidator();
  if (!validate(value)) {
    const problems = describeSchemaErrors(ATLAS_INDEX_FILE, value, validate.errors ?? []).map((p) => `${p.pointer}: ${p.message}`);
    throw new AtlasStoreError(`${shownAs}/${ATLAS_INDEX_FILE} is not a valid atlas index: ${problems.slice(0, 3).join('; ')}\n${remedy}`);
  }
  return { dir: root, index: value as AtlasIndex };
}

/** Why cells measured under `stored` settings cannot stand for cells measured under `current`, or undefined when they can. */
export function describeSettingsChange(stored: AtlasSettings, current: AtlasSettings): string | undefined {
  if (stored.tool.version !== current.tool.version) return `it was made by ${stored.tool.name} ${stored.tool.version}, this is ${current.tool.version}`;
  if (stored.tool.fingerprint !== current.tool.fingerprint) return `the code that measures changed since (fingerprint ${stored.tool.fingerprint.slice(0, 12)} → ${current.tool.fingerprint.slice(0, 12)})`;
  if (stored.timeoutMs !== current.timeoutMs) return `it used --timeout ${stored.timeoutMs}, this atlas ${current.timeoutMs}`;
  const schemas = (settings: AtlasSettings) => (settings.schemas === null ? 'none (--no-schemas)' : settings.schemas.map((s) => `${s.version}:${s.sha256.slice(0, 12)}`).join(', '));
  if (schemas(stored) !== schemas(current)) return `its schemas were ${schemas(stored)}, this atlas's are ${schemas(current)}`;
  return undefined;
}
