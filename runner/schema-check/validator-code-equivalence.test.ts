// The pinned standalone validator code judges the whole table exactly as ajv compiling in-process
// does: same cells, same schema results (errors included), in direct mode against the reference.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { describeWithSchemas, getTestSchemasDir } from '../../test/describe-requiring.js';
import { loadCases } from '../cases/load-cases.js';
import { classifyReference } from '../classify/reference.js';
import { runMatrix } from '../run/run-matrix.js';
import { createClassifierTarget } from '../targets/classifier-target.js';
import type { Cell } from '../vocabulary/types.js';
import { resolveSchemas } from './load-schemas.js';
import { checkScriptedResponses } from './scripted-message.js';
import { createSchemaValidator, type SchemaValidator } from './validator.js';

describeWithSchemas('validator code equivalence', () => {
  it('judges every cell of the table as the in-process compile does', { timeout: 60_000 }, async () => {
    const cases = await loadCases();
    const schemas = await resolveSchemas({ env: { MCP_SCHEMAS_DIR: getTestSchemasDir() }, download: false });
    const dir = mkdtempSync(join(tmpdir(), 'mem-validator-equivalence-'));
    try {
      const run = async (validator: SchemaValidator) => {
        const target = createClassifierTarget({ name: 'reference', kind: 'classifier' }, classifyReference);
        const result = await runMatrix({ cases, targets: [target], mode: 'direct', checkSchemas: (item, version) => checkScriptedResponses(validator, item.case, version) });
        return result.cells.map(({ durationMs: _, ...cell }: Cell) => cell);
      };
      const cached = createSchemaValidator(schemas, { codeCacheDir: dir });
      const compiled = await run(createSchemaValidator(schemas));
      expect(await run(cached)).toEqual(compiled);
      // Every definition the table needed came from pinned code, and invalid messages were found.
      expect(cached.listUsedCode().length).toBeGreaterThan(20);
      expect(compiled.flatMap((cell) => cell.schema).filter((result) => !result.valid).length).toBeGreaterThan(50);
      // From the cache the second time: still the same.
      const again = createSchemaValidator(schemas, { codeCacheDir: dir });
      expect(await run(again)).toEqual(compiled);
      expect(new Set(again.listUsedCode().map((code) => code.source))).toEqual(new Set(['cache']));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
