// The case table declares, per scripted body and version, whether the body is schema-valid
// (`schemaValid`). This test holds those declarations against ajv so they cannot drift.
import { beforeAll, expect, it } from 'vitest';
import { loadCases } from '../cases/load-cases.js';
import type { LoadedCase } from '../cases/case-types.js';
import { PROTOCOL_VERSIONS } from '../vocabulary/types.js';
import { resolveSchemas } from './load-schemas.js';
import { getScriptedMessage } from './scripted-message.js';
import { createSchemaValidator, type SchemaValidator } from './validator.js';
import { describeWithSchemas } from '../../test/describe-requiring.js';
import { getSchemaRequirement } from '../../test/requirements.js';

const cases: LoadedCase[] = await loadCases();
const declared = cases.flatMap(({ case: c }) =>
  c.exchanges.flatMap((exchange, index) =>
    PROTOCOL_VERSIONS.filter((v) => exchange.schemaValid?.[v] !== undefined).map((version) => ({
      label: `${c.id} #${index} ${version}`,
      exchange,
      version,
      want: exchange.schemaValid![version]!,
    })),
  ),
);

let validator: SchemaValidator;
if (getSchemaRequirement().available) beforeAll(async () => {
  validator = createSchemaValidator(await resolveSchemas({ env: { MCP_SCHEMAS_DIR: process.env.MCP_SCHEMAS_DIR }, download: false }));
});

describeWithSchemas('declared schema validity in the case table', () => {
  it('declares validity for some bodies', () => {
    expect(declared.length).toBeGreaterThan(0);
  });

  it.each(declared)('$label: schemaValid is $want', ({ exchange, version, want }) => {
    const scripted = getScriptedMessage(exchange.response, exchange.request?.id ?? 1);
    expect('message' in scripted, 'a declared body must carry a JSON message').toBe(true);
    if (!('message' in scripted)) return;
    const check = validator.checkResponseMessage(version, scripted.message);
    expect(check.valid, `${check.definition}: ${check.errors.join('; ') || 'no errors'}`).toBe(want);
  });
});
