// What some tests need from outside the repository: the pinned official schemas, the
// specification's example messages, a browser. This module alone decides whether each is
// there. Without it, a group of tests skips locally (vitest.config.ts prints one notice for the
// whole run) and fails under CI=true, where a skip would hide that nothing was checked.
// No vitest import here: vitest.config.ts uses it too (describe-requiring.ts wraps describe).
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { getSchemaCacheDir } from '../runner/schema-check/schema-files.js';
import { PROTOCOL_VERSIONS } from '../runner/vocabulary/types.js';

export interface Requirement {
  /** What the tests need, e.g. "the pinned official schemas". */
  name: string;
  available: boolean;
  /** Why it is missing (empty when available). */
  missing: string;
  /** How to provide it. */
  remedy: string;
}

export const CHROMIUM_PATH = '/usr/bin/chromium';
const ROOT = resolve(import.meta.dirname, '..');
const SPEC_EXAMPLES_VERSION = '2026-07-28';

/** CI=true (or any value but "false"/"0"), as GitHub Actions and most CI services set it. */
export function isCi(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env.CI?.trim().toLowerCase();
  return value !== undefined && value !== '' && value !== 'false' && value !== '0';
}

export interface FindSchemasOptions {
  env?: NodeJS.ProcessEnv;
  /** The clone; `<rootDir>/../shared/mcp-spec` is looked at. @default this repository */
  rootDir?: string;
  /** @default getSchemaCacheDir(env) */
  cacheDir?: string;
}

/**
 * Where the tests read the pinned schemas: MCP_SCHEMAS_DIR, else ../shared/mcp-spec beside the
 * clone, else the user cache that `npm run matrix` or `schemas fetch` fills. Tests never download.
 */
export function findTestSchemasDir(options: FindSchemasOptions = {}): string | undefined {
  const env = options.env ?? process.env;
  if (env.MCP_SCHEMAS_DIR) return env.MCP_SCHEMAS_DIR;
  const rootDir = options.rootDir ?? ROOT;
  const shared = resolve(rootDir, '../shared/mcp-spec');
  if (hasEverySchema(shared)) return shared;
  const { commit } = JSON.parse(readFileSync(join(ROOT, 'schemas/pins.json'), 'utf8')) as { commit: string };
  const cached = join(options.cacheDir ?? getSchemaCacheDir(env), commit);
  return hasEverySchema(cached) ? cached : undefined;
}

/** The schemas the tests were given (vitest.config.ts puts findTestSchemasDir() into MCP_SCHEMAS_DIR). */
export function getSchemaRequirement(env: NodeJS.ProcessEnv = process.env): Requirement {
  const dir = env.MCP_SCHEMAS_DIR;
  return {
    name: 'the pinned official schemas',
    available: Boolean(dir),
    missing: dir ? '' : 'MCP_SCHEMAS_DIR is not set, ../shared/mcp-spec is not beside the clone and the user cache is empty',
    remedy:
      'Set MCP_SCHEMAS_DIR to a folder holding <version>/schema.json for ' +
      `${PROTOCOL_VERSIONS.join(' and ')}, or fill the cache once with \`npm run matrix\` or \`node bin/mcp-error-matrix.js schemas fetch\` (needs network).`,
  };
}

/** The specification's example messages: they come with a checkout of the spec, not with the schema cache. */
export function getSpecExamplesRequirement(env: NodeJS.ProcessEnv = process.env): Requirement {
  const dir = env.MCP_SCHEMAS_DIR ? join(env.MCP_SCHEMAS_DIR, SPEC_EXAMPLES_VERSION, 'examples') : undefined;
  const available = dir !== undefined && existsSync(dir);
  return {
    name: 'the specification examples corpus',
    available,
    missing: available ? '' : dir ? `${dir} does not exist` : 'no MCP_SCHEMAS_DIR',
    remedy: `Set MCP_SCHEMAS_DIR to a checkout of the specification's schema folder (it holds ${SPEC_EXAMPLES_VERSION}/examples/).`,
  };
}

/** Debian's Chromium and the playwright-core driver, for the HTML report's browser tests. */
export function getBrowserRequirement(chromium = CHROMIUM_PATH): Requirement {
  const missing = !existsSync(chromium) ? `${chromium} is absent` : !canResolve('playwright-core') ? 'playwright-core is not installed' : '';
  return {
    name: 'a headless Chromium',
    available: missing === '',
    missing,
    remedy: `Install Chromium at ${chromium} (apt-get install -y chromium) and the playwright-core devDependency (npm ci).`,
  };
}

/** What a test group does without its requirement: run, skip (locally), or fail (under CI). */
export function decideRequirementMode(requirement: Requirement, env: NodeJS.ProcessEnv = process.env): 'run' | 'skip' | 'fail' {
  if (requirement.available) return 'run';
  return isCi(env) ? 'fail' : 'skip';
}

/** The message of the failing test that stands in for a group under CI. */
export function describeMissing(requirement: Requirement): string {
  return `${requirement.name}: required under CI=true, but ${requirement.missing}. ${requirement.remedy}`;
}

/** The one notice a local run prints for every group it skips; undefined when nothing is skipped. */
export function formatSkipNotice(requirements: readonly Requirement[], env: NodeJS.ProcessEnv = process.env): string | undefined {
  const absent = requirements.filter((requirement) => !requirement.available);
  if (absent.length === 0) return undefined;
  const lines = absent.map((requirement) => `  - ${requirement.name}: ${requirement.missing}. ${requirement.remedy}`);
  const outcome = isCi(env) ? 'Under CI=true the tests that need them FAIL:' : 'The tests that need them are skipped:';
  return `mcp-error-matrix tests: ${outcome}\n${lines.join('\n')}`;
}

function hasEverySchema(dir: string): boolean {
  return PROTOCOL_VERSIONS.every((version) => existsSync(join(dir, version, 'schema.json')));
}

function canResolve(name: string): boolean {
  try {
    createRequire(join(ROOT, 'package.json')).resolve(name);
    return true;
  } catch {
    return false;
  }
}
