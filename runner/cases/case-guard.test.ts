import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, describe, expect, it } from 'vitest';
import { packagePath } from '../util/package-paths.js';
import { buildCaseValidator } from './build-case-validator.js';
import { CASE_AJV_OPTIONS, getCaseGuard, loadGeneratedValidator } from './case-guard.js';
import { compileCaseSchema } from './case-validator-code.js';

describe('case guard', () => {
  // The guard compiles with validateSchema: false for start-up time; this is the check it skips.
  it('the case schema is valid against the draft 2020-12 meta-schema', () => {
    const schema = JSON.parse(readFileSync(packagePath('schemas', 'case.schema.json'), 'utf8')) as object;
    const ajv = new Ajv2020({ ...CASE_AJV_OPTIONS });
    expect(ajv.validateSchema(schema), ajv.errorsText(ajv.errors)).toBe(true);
    expect(() => ajv.compile(schema)).not.toThrow();
  });

  it('rejects a document that is not a case and describes why', () => {
    const guard = getCaseGuard();
    expect(guard.isCase({ id: 42 })).toBe(false);
    expect(guard.describe('x.json', { id: 42 }).length).toBeGreaterThan(0);
  });
});

describe('generated case validator', () => {
  const schemaText = readFileSync(packagePath('schemas', 'case.schema.json'), 'utf8');
  // Inside the package: the generated code requires ajv's runtime helpers from node_modules.
  const dir = mkdtempSync(join(packagePath(), '.tmp-case-validator-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is absent next to the sources, so the guard compiles the schema', () => {
    expect(loadGeneratedValidator(schemaText, join(dir, 'missing'))).toBeUndefined();
  });

  it('gives the same verdicts and errors as the compiled schema', () => {
    buildCaseValidator(dir);
    const generated = loadGeneratedValidator(schemaText, dir);
    expect(generated).toBeTypeOf('function');
    const compiled = compileCaseSchema(schemaText).validate;
    const bundled = readdirSync(packagePath('cases'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.json'));
    expect(bundled.length).toBeGreaterThan(0);
    const documents: unknown[] = bundled.map((f) => JSON.parse(readFileSync(join(packagePath('cases'), f), 'utf8')));
    const first = documents[0] as Record<string, unknown>;
    documents.push({ id: 42 }, null, [], { ...first, extra: true }, { ...first, id: 'Bad Id' }, { ...first, expect: 'x' });
    for (const document of documents) {
      expect(generated!(document)).toBe(compiled(document));
      expect(generated!.errors ?? null).toEqual(compiled.errors ?? null);
    }
  });

  it('is ignored once the schema text differs from the one it was generated from', () => {
    buildCaseValidator(dir);
    expect(loadGeneratedValidator(`${schemaText}\n`, dir)).toBeUndefined();
  });
});
