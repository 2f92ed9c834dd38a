// Regenerates schemas/validator-code-pins.json: the SHA-256 of every definition's standalone
// validator code for each pinned schema, with the ajv and ajv-formats versions installed now.
// Run after a schema pin or an ajv upgrade: `npm run pin:validator-code` (needs the pinned schemas).
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { packagePath } from '../runner/util/package-paths.js';
import { resolveSchemas } from '../runner/schema-check/index.js';
import { generateDefinitionCode, hashCode, VALIDATOR_CODE_PINS_FILE, type ValidatorCodePins } from '../runner/schema-check/validator-code.js';
import { PROTOCOL_VERSIONS } from '../runner/vocabulary/types.js';

const require = createRequire(import.meta.url);
const loaded = await resolveSchemas({ env: process.env });
const pins: ValidatorCodePins = {
  ajv: (require('ajv/package.json') as { version: string }).version,
  ajvFormats: (require('ajv-formats/package.json') as { version: string }).version,
  schemas: {},
};
for (const version of PROTOCOL_VERSIONS) {
  const schema = loaded[version]!;
  const container = Object.hasOwn(schema.schema as object, '$defs') ? '$defs' : 'definitions';
  const defs = Object.keys((schema.schema as Record<string, Record<string, unknown>>)[container]!).sort();
  const started = performance.now();
  const codes = Object.fromEntries(defs.map((definition) => [definition, hashCode(generateDefinitionCode(schema.schema, container, definition))]));
  pins.schemas[schema.sha256] = { version, codes };
  process.stderr.write(`${version}: ${defs.length} definitions in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
}
// One line per schema: small diffs when one pin changes.
const lines = Object.entries(pins.schemas).map(([sha, entry]) => `    ${JSON.stringify(sha)}: ${JSON.stringify(entry)}`);
writeFileSync(packagePath(VALIDATOR_CODE_PINS_FILE), `{\n  "ajv": ${JSON.stringify(pins.ajv)},\n  "ajvFormats": ${JSON.stringify(pins.ajvFormats)},\n  "schemas": {\n${lines.join(',\n')}\n  }\n}\n`);
process.stderr.write(`written to ${VALIDATOR_CODE_PINS_FILE}\n`);
