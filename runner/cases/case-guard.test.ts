import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { packagePath } from '../package-paths.js';
import { CASE_AJV_OPTIONS, getCaseGuard } from './case-guard.js';

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
