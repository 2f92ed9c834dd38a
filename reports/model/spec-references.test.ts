// Every specification reference the case table and the runner cite resolves to a page of the
// specification at the pinned commit, so a report never leaves a reader with a bare alias.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packagePath } from '../../runner/util/package-paths.js';
import { findSpecAliases, getSpecReference, listSpecReferences, resolveSpecReference, SPEC_COMMIT, SPEC_REPOSITORY } from './spec-references.js';

/** Every file under a folder of the package, tests excluded (they name versions, not references). */
function listSourceFiles(folder: string): string[] {
  return readdirSync(packagePath(folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && !/\.test\.ts$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

describe('specification references', () => {
  it('resolves every reference used anywhere in cases/ and runner/', () => {
    const files = [...listSourceFiles('cases'), ...listSourceFiles('runner')];
    expect(files.length).toBeGreaterThan(100);
    const unknown: string[] = [];
    let found = 0;
    for (const file of files) {
      for (const alias of findSpecAliases(readFileSync(file, 'utf8'))) {
        found++;
        if (!getSpecReference(alias)) unknown.push(`${relative(packagePath(), file)}: ${alias}`);
      }
    }
    expect(found).toBeGreaterThan(50);
    expect(unknown).toEqual([]);
  });

  it('resolves every case\'s spec entry by the alias it starts with', () => {
    const refs = listSourceFiles('cases')
      .filter((file) => file.endsWith('.json'))
      .flatMap((file) => ((JSON.parse(readFileSync(file, 'utf8')) as { spec?: { ref: string }[] }).spec ?? []).map((entry) => entry.ref));
    expect(refs.length).toBeGreaterThan(100);
    expect(refs.filter((ref) => !resolveSpecReference(ref))).toEqual([]);
  });

  it('links the page at the commit the schemas are pinned at', () => {
    const pins = JSON.parse(readFileSync(packagePath('schemas', 'pins.json'), 'utf8')) as { repository: string; commit: string };
    expect(SPEC_REPOSITORY).toBe(pins.repository);
    expect(SPEC_COMMIT).toBe(pins.commit);
    expect(resolveSpecReference('T25 § Sending Messages to the Server, item 6')).toEqual({
      id: 'T25',
      title: 'MCP 2025-11-25: Transports (Streamable HTTP)',
      url: `https://github.com/modelcontextprotocol/modelcontextprotocol/blob/${pins.commit}/docs/specification/2025-11-25/basic/transports.mdx`,
    });
    expect(resolveSpecReference('ST25/ST26 Result')?.url).toMatch(/\/schema\/2025-11-25\/schema\.ts$/);
  });

  it('lists the known references a text cites, once each, and ignores unknown words', () => {
    expect(findSpecAliases('SH26 § Receiving Messages; T25 item 6; SH26 again; XY25')).toEqual(['SH26', 'T25', 'XY25']);
    expect(listSpecReferences(['SH26 § Receiving Messages', 'T25 and SH26', 'XY25, toString(), constructor26']).map((r) => r.id)).toEqual(['SH26', 'T25']);
    expect(getSpecReference('constructor')).toBeUndefined();
  });
});
