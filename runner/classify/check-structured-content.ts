// A complete tool result against the tool's declared `outputSchema` (2025-06-18 on): the server
// MUST return structured results that conform, and the client SHOULD validate them (TL0618/TL25/
// TL26 § Output Schema; LEGACY 3.12–3.13). Whether a declared schema makes `structuredContent`
// required is left open by the spec (LEGACY §8.8, WIRE-FACTS §8.9): the table reads the MUST
// strictly for a success, and asks nothing of a tool error (`isError: true`), which reports a
// failure rather than the tool's output.
import { createRequire } from 'node:module';
import type { ValidateFunction } from 'ajv';
import type { FormatsPlugin } from 'ajv-formats';
import type { ProtocolVersion } from '../vocabulary/types.js';
import { getOutputSchemaDialect } from '../vocabulary/version-features.js';

// ajv (CommonJS, about a hundred modules with its formats) is required on the first outputSchema
// to compile, not when the classifier is imported: a run whose cases declare none never loads it.
const require = createRequire(import.meta.url);

/** Compiled output schemas kept, by dialect and schema text; the table has few, so a small bound is plenty. */
export const MAX_COMPILED = 64;

type Dialect = 'draft-07' | '2020-12';
type Compiled = { ok: true; validate: ValidateFunction } | { ok: false; problem: string };

const compiledSchemas = new Map<string, Compiled>();

/** A problem with `result` under the tool's `outputSchema`, or undefined when there is none to report. */
export function checkStructuredContent(result: Record<string, unknown>, outputSchema: unknown, version: ProtocolVersion): string | undefined {
  const dialect = getOutputSchemaDialect(version);
  if (dialect === undefined || typeof outputSchema !== 'object' || outputSchema === null || result['isError'] === true) return undefined;
  if (!('structuredContent' in result)) return 'the tool declares an outputSchema but the result has no structuredContent';
  const compiled = compileOutputSchema(outputSchema, dialect);
  if (!compiled.ok) return compiled.problem;
  if (compiled.validate(result['structuredContent'])) return undefined;
  const first = compiled.validate.errors?.[0];
  const where = first?.instancePath ? `structuredContent${first.instancePath.replace(/\//g, '.')}` : 'structuredContent';
  return `${where} does not match the tool's outputSchema (${dialect}): ${first?.message ?? 'invalid'}`;
}

/** How many compiled schemas are kept now (at most MAX_COMPILED). */
export function countCompiledSchemas(): number {
  return compiledSchemas.size;
}

function compileOutputSchema(schema: object, dialect: Dialect): Compiled {
  const key = `${dialect} ${JSON.stringify(schema)}`;
  const known = compiledSchemas.get(key);
  if (known) return known;
  const entry = compileAlone(schema, dialect);
  if (compiledSchemas.size >= MAX_COMPILED) compiledSchemas.delete(compiledSchemas.keys().next().value as string);
  compiledSchemas.set(key, entry);
  return entry;
}

// Each schema gets an ajv of its own. ajv keeps every schema it was given under its $id for good,
// even one it could not compile: in a shared instance a second tool whose schema has the same $id,
// or this schema compiled again once evicted above, would be refused as "already exists" (and the
// bound above would not bound ajv's own cache).
function compileAlone(schema: object, dialect: Dialect): Compiled {
  // strict: false: tool schemas carry annotation keywords (title, examples, x-…) strict mode refuses.
  // validateSchema: false: the draft 2020-12 meta-schema costs about 1 s to compile; a schema
  // ajv cannot compile still fails, and is reported as unusable.
  const options = { allErrors: false, strict: false, validateSchema: false };
  const ajv = dialect === '2020-12' ? new (require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js')).Ajv2020(options) : new (require('ajv') as typeof import('ajv')).Ajv(options);
  (require('ajv-formats') as FormatsPlugin)(ajv);
  try {
    return { ok: true, validate: ajv.compile(schema) };
  } catch (error) {
    // TL25 § Tool: implementations MUST fail gracefully on a schema they cannot use.
    return { ok: false, problem: `the tool's outputSchema cannot be used (${dialect}): ${(error as Error).message}` };
  }
}
