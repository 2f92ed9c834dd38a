// Expectations audited against the schemas (issue 13 §2): where a scripted server message is
// schema-invalid for a version, no case may expect a reading that treats it as a valid answer
// (TOOL_SUCCESS, TOOL_ERROR, INPUT_REQUIRED) unless the specification's prose overrides the schema
// (a MUST, or a rule that clients not act on the rejected member), and then the exchange names that
// rule and its reference (`schemaOverride`).
import { beforeAll, expect, it } from 'vitest';
import { getExpectedVerdict, type LoadedCase } from '../cases/case-types.js';
import { loadCases } from '../cases/load-cases.js';
import type { Outcome } from '../vocabulary/types.js';
import { resolveSchemas } from './load-schemas.js';
import { getScriptedMessage } from './scripted-message.js';
import { createSchemaValidator, type SchemaValidator } from './validator.js';
import { describeWithSchemas } from '../../test/describe-requiring.js';
import { getSchemaRequirement } from '../../test/requirements.js';

/** The readings under which a client hands the message on as an answer. */
const ANSWER_OUTCOMES: ReadonlySet<Outcome> = new Set(['TOOL_SUCCESS', 'TOOL_ERROR', 'INPUT_REQUIRED']);

const cases: LoadedCase[] = await loadCases();
const rows = cases.flatMap(({ case: c }) =>
  c.exchanges.flatMap((exchange, index) =>
    c.versions.map((version) => ({ label: `${c.id} #${index + 1} ${version}`, caseId: c.id, exchange, index, version })),
  ),
);

let validator: SchemaValidator;
if (getSchemaRequirement().available) beforeAll(async () => {
  validator = createSchemaValidator(await resolveSchemas({ env: { MCP_SCHEMAS_DIR: process.env.MCP_SCHEMAS_DIR }, download: false }));
});

/** The exchanges whose message is schema-invalid under a version yet expected to be read as an answer. */
function findAnswersToInvalidMessages(): { label: string; outcome: Outcome; errors: string; override: unknown }[] {
  return rows.flatMap(({ label, exchange, index, version }) => {
    const outcome = getExpectedVerdict(exchange, version).outcome;
    if (!ANSWER_OUTCOMES.has(outcome)) return [];
    const scripted = getScriptedMessage(exchange.response, exchange.request?.id ?? index + 1);
    if (!('message' in scripted)) return [];
    const check = validator.checkResponseMessage(version, scripted.message);
    if (check.valid) return [];
    return [{ label, outcome, errors: `${check.definition}: ${check.errors.join('; ')}`, override: exchange.schemaOverride }];
  });
}

describeWithSchemas('expectations audited against the schemas', () => {
  it('covers every case × version × exchange of the table', () => {
    expect(rows.length).toBeGreaterThan(cases.length);
  });

  it('no schema-invalid message is expected as TOOL_SUCCESS, TOOL_ERROR or INPUT_REQUIRED without a named prose override', () => {
    const unexplained = findAnswersToInvalidMessages()
      .filter((row) => row.override === undefined)
      .map((row) => `${row.label}: expects ${row.outcome} of a message the schema rejects (${row.errors}); fix the case, or name the prose rule that overrides the schema in schemaOverride { rule, ref }`);
    expect(unexplained).toEqual([]);
  });

  // The line issue 26 item 7 draws: a message the schema rejects is never a result, so a fault in it
  // is never the server's alone; a server fault sits beside a message the schema accepts (a request
  // on the stream before the result, structured content against the tool's own schema, …).
  it('every serverFault sits on an exchange whose message the schema accepts, in each version where it is a fault', () => {
    const onInvalid = rows.flatMap(({ label, exchange, index, version }) => {
      const fault = exchange.serverFault;
      if (fault === undefined || (fault.versions !== undefined && !fault.versions.includes(version))) return [];
      const scripted = getScriptedMessage(exchange.response, exchange.request?.id ?? index + 1);
      if (!('message' in scripted)) return [`${label}: the server fault's result comes from no JSON-RPC message (${scripted.none})`];
      const check = validator.checkResponseMessage(version, scripted.message);
      return check.valid ? [] : [`${label}: a server fault on a message the schema rejects (${check.definition}: ${check.errors.join('; ')})`];
    });
    expect(rows.some((row) => row.exchange.serverFault !== undefined)).toBe(true);
    expect(onInvalid).toEqual([]);
  });

  it('every schemaOverride is needed: it sits on an exchange whose message the schema rejects under some version and whose expectation reads it as an answer', () => {
    const needed = new Set(findAnswersToInvalidMessages().map((row) => row.label.replace(/ \S+$/, '')));
    const declared = rows.filter((row) => row.exchange.schemaOverride !== undefined).map((row) => `${row.caseId} #${row.index + 1}`);
    expect([...new Set(declared)].filter((label) => !needed.has(label))).toEqual([]);
  });
});
