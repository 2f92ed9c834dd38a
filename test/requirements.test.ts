import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PROTOCOL_VERSIONS } from '../runner/vocabulary/vocabulary.js';
import {
  decideRequirementMode,
  describeMissing,
  findTestSchemasDir,
  formatSkipNotice,
  getBrowserRequirement,
  getSchemaRequirement,
  getSpecExamplesRequirement,
  isCi,
} from './requirements.js';

const work = mkdtempSync(join(tmpdir(), 'mem-requirements-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

// A clone with nothing beside it, an empty cache and no MCP_SCHEMAS_DIR: a newcomer offline.
const offline = { env: {}, rootDir: join(work, 'clone'), cacheDir: join(work, 'empty-cache') };

describe('test requirements: one place decides, skip locally, fail under CI', () => {
  it('finds no schemas with no MCP_SCHEMAS_DIR, nothing beside the clone and an empty cache', () => {
    expect(findTestSchemasDir(offline)).toBeUndefined();
    expect(getSchemaRequirement({}).available).toBe(false);
  });

  it('finds them in MCP_SCHEMAS_DIR, beside the clone, or in the cache (only with every version)', () => {
    expect(findTestSchemasDir({ ...offline, env: { MCP_SCHEMAS_DIR: '/given' } })).toBe('/given');
    const shared = join(work, 'shared/mcp-spec');
    for (const [index, version] of PROTOCOL_VERSIONS.entries()) {
      expect(findTestSchemasDir(offline), `${index} of ${PROTOCOL_VERSIONS.length} versions`).toBeUndefined();
      mkdirSync(join(shared, version), { recursive: true });
      writeFileSync(join(shared, version, 'schema.json'), '{}');
    }
    expect(findTestSchemasDir(offline)).toBe(shared);
  });

  it('skips without the schemas locally, with one notice naming every remedy', () => {
    const requirement = getSchemaRequirement({});
    expect(decideRequirementMode(requirement, {})).toBe('skip');
    const notice = formatSkipNotice([requirement, getSpecExamplesRequirement({})], {});
    expect(notice).toMatch(/^mcp-error-matrix tests: The tests that need them are skipped:\n/);
    expect(notice).toContain('MCP_SCHEMAS_DIR');
    expect(notice).toContain('npm run matrix');
    expect(notice).toContain('schemas fetch');
    expect(notice).toContain('the specification examples corpus');
    expect(notice?.split('\n')).toHaveLength(3);
  });

  it('fails without the schemas under CI=true, saying what is missing and how to provide it', () => {
    const requirement = getSchemaRequirement({});
    expect(decideRequirementMode(requirement, { CI: 'true' })).toBe('fail');
    expect(describeMissing(requirement)).toMatch(/^the pinned official schemas: required under CI=true, but MCP_SCHEMAS_DIR is not set.*Set MCP_SCHEMAS_DIR/);
    expect(formatSkipNotice([requirement], { CI: 'true' })).toContain('Under CI=true the tests that need them FAIL');
  });

  it('runs, with no notice, when everything is there', () => {
    const requirement = getSchemaRequirement({ MCP_SCHEMAS_DIR: '/given' });
    expect(decideRequirementMode(requirement, { CI: 'true' })).toBe('run');
    expect(formatSkipNotice([requirement], {})).toBeUndefined();
  });

  it('requires a browser binary and the driver', () => {
    const absent = getBrowserRequirement(join(work, 'no-chromium'));
    expect(absent).toMatchObject({ available: false, missing: `${join(work, 'no-chromium')} is absent` });
    expect(decideRequirementMode(absent, { CI: '1' })).toBe('fail');
    expect(decideRequirementMode(absent, {})).toBe('skip');
  });

  it('reads CI as most services set it', () => {
    expect([isCi({ CI: 'true' }), isCi({ CI: '1' }), isCi({ CI: 'false' }), isCi({ CI: '0' }), isCi({ CI: '' }), isCi({})]).toEqual([true, true, false, false, false, false]);
  });
});
