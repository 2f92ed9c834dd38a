// Classifiers wrong on purpose, in one rule each, that the case-table lint needs besides the
// shared set in test/fixtures/classifiers: without them the table's correct-reading cases
// (baseline, an absent isError, every content type, status-only failures) would be failed by
// no fixture at all. Each one is a mistake real clients make.
import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseJsonText } from '../runner/classify/json-value.js';
import { parseSseBody } from '../runner/classify/parse-sse-body.js';
import { classifyReference, createClassifier } from '../runner/classify/reference.js';
import { createVerdict } from '../runner/classify/verdict.js';
import { createClassifierTarget } from '../runner/targets/classifier-target.js';
import type { Classifier, ClassifierInput, Target, Verdict } from '../runner/vocabulary/types.js';

/** `await res.json()` before `res.ok`: an error status is read through its body (empty or HTML ⇒ MALFORMED_JSON). */
export function classifyBodyFirst(input: ClassifierInput): Verdict {
  if (input.status < 300 && input.status >= 200) return classifyReference(input);
  if (input.status <= 0) return classifyReference(input);
  const parsed = parseJsonText(input.body);
  if (!parsed.ok) return createVerdict('MALFORMED_JSON', `res.json() threw: ${parsed.problem}`);
  return classifyReference({ ...input, status: 200 });
}

/** `if (result.isError !== false)`: an absent isError is read as a tool error. */
export function classifyIsErrorNotFalse(input: ClassifierInput): Verdict {
  const verdict = classifyReference(input);
  if (verdict.outcome !== 'TOOL_SUCCESS') return verdict;
  return readResultMember(input, 'isError') === false ? verdict : createVerdict('TOOL_ERROR', 'isError is not false');
}

/** A client whose content model only knows text blocks. */
export const classifyTextBlocksOnly = createClassifier({
  checkContentBlock: (block) =>
    typeof block === 'object' && block !== null && (block as { type?: unknown }).type === 'text' && typeof (block as { text?: unknown }).text === 'string'
      ? undefined
      : 'not a text block',
});

/** A client that never reads the tool's outputSchema: structuredContent is not validated, nor required. */
export const classifyIgnoresOutputSchema = createClassifier({ checkStructuredContent: () => undefined });

/** Closed 2025 schemas: a result member the 2025 versions do not define (resultType) makes the result invalid. */
export function classifyStrict2025Result(input: ClassifierInput): Verdict {
  const verdict = classifyReference(input);
  if (input.protocolVersion === '2026-07-28' || (verdict.outcome !== 'TOOL_SUCCESS' && verdict.outcome !== 'TOOL_ERROR')) return verdict;
  return readResultMember(input, 'resultType') === undefined ? verdict : createVerdict('INVALID_TOOL_RESULT', 'unknown member resultType');
}

/** An SDK that reports its own timeout or a dropped connection as JSON-RPC error -32001. */
export function classifyTimeoutAsPeerError(input: ClassifierInput): Verdict {
  const verdict = classifyReference(input);
  return verdict.outcome === 'NO_RESPONSE' ? createVerdict('JSONRPC_ERROR', 'Request timed out', { code: -32001 }) : verdict;
}

/** A stream reader that keeps overwriting its answer: the last SSE event answering the call's id wins. */
export function classifyLastResponseWins(input: ClassifierInput): Verdict {
  if (!/event-stream/i.test(input.contentType ?? '')) return classifyReference(input);
  const answers = parseSseBody(input.body).filter((event) => {
    const parsed = parseJsonText(event.data);
    return parsed.ok && typeof parsed.value === 'object' && parsed.value !== null && (parsed.value as { id?: unknown }).id === input.expectedId;
  });
  // One answer or none: nothing to overwrite, so the reference's reading (its one rule plays no part).
  const last = answers.at(-1);
  if (last === undefined || answers.length < 2) return classifyReference(input);
  return classifyReference({ ...input, body: `data: ${last.data.replace(/\n/g, '\ndata: ')}\n\n` });
}

/**
 * Drops a byte order mark from text that was decoded already (UTF-8 decode dropped one), so both of
 * two marks are lost: the reference did this before issue 26, and Node 20's Response.text() does it.
 */
export function classifyStripsDecodedBom(input: ClassifierInput): Verdict {
  return classifyReference(input.body.charCodeAt(0) === 0xfeff ? { ...input, body: input.body.slice(1) } : input);
}

/** Validates the whole 2026-07-28 result against the schema: a serverInfo without name and version makes it invalid. */
export function classifyValidatesServerInfo(input: ClassifierInput): Verdict {
  const verdict = classifyReference(input);
  if (input.protocolVersion !== '2026-07-28' || (verdict.outcome !== 'TOOL_SUCCESS' && verdict.outcome !== 'TOOL_ERROR')) return verdict;
  const meta = readResultMember(input, '_meta');
  const info = typeof meta === 'object' && meta !== null ? (meta as Record<string, unknown>)['io.modelcontextprotocol/serverInfo'] : undefined;
  if (info === undefined) return verdict;
  const complete = typeof info === 'object' && info !== null && typeof (info as { name?: unknown }).name === 'string' && typeof (info as { version?: unknown }).version === 'string';
  return complete ? verdict : createVerdict('INVALID_TOOL_RESULT', '_meta serverInfo is not an Implementation (name and version)');
}

/** Takes an input_required result at its word: under 2026-07-28 any such result asks for input, whatever it carries. */
export function classifyInputRequiredAtItsWord(input: ClassifierInput): Verdict {
  const verdict = classifyReference(input);
  if (input.protocolVersion !== '2026-07-28' || verdict.outcome !== 'INVALID_TOOL_RESULT') return verdict;
  return readResultMember(input, 'resultType') === 'input_required' ? createVerdict('INPUT_REQUIRED', 'resultType says input_required') : verdict;
}

/**
 * A client that applies the rules of one version whatever was negotiated (WIRE-FACTS-LEGACY 6.8:
 * the InitializeResult's version governs): written for 2025-11-25, it refuses 2025-03-26 batches,
 * reads 2025-03-26/2025-06-18 blocks strictly and 2026-07-28 structuredContent as an object; written
 * for 2025-03-26, it unwraps batches and ignores structuredContent in the later session versions.
 */
export function readsVersionsAs(version: '2025-03-26' | '2025-11-25', alsoModern: boolean): (input: ClassifierInput) => Verdict {
  return (input) => classifyReference(input.protocolVersion === '2026-07-28' && !alsoModern ? input : { ...input, protocolVersion: version });
}

/** The extra fixtures by name, for the lint's "failed by" listing. */
export const CASE_TABLE_FIXTURES: Record<string, (input: ClassifierInput) => Verdict> = {
  'body-first': classifyBodyFirst,
  'is-error-not-false': classifyIsErrorNotFalse,
  'text-blocks-only': classifyTextBlocksOnly,
  'ignores-output-schema': classifyIgnoresOutputSchema,
  'strict-2025-result': classifyStrict2025Result,
  'timeout-as-32001': classifyTimeoutAsPeerError,
  'last-response-wins': classifyLastResponseWins,
  'strips-decoded-bom': classifyStripsDecodedBom,
  'validates-server-info': classifyValidatesServerInfo,
  'input-required-at-its-word': classifyInputRequiredAtItsWord,
  'every-version-as-2025-11-25': readsVersionsAs('2025-11-25', true),
  'sessions-as-2025-03-26': readsVersionsAs('2025-03-26', false),
};

const FIXTURES_DIR = resolve(import.meta.dirname, 'fixtures/classifiers');
// Not "wrong in one rule": throws and never-returns break every cell (error cells, not
// verdicts), published-shape is a compatibility probe for the published input shape.
const NOT_ONE_RULE_FIXTURES = new Set(['throws', 'never-returns', 'published-shape']);

/** Every classifier wrong in exactly one rule (test/fixtures/classifiers and the ones above), as targets. */
export async function loadOneRuleTargets(): Promise<Target[]> {
  const targets: Target[] = [];
  for (const file of readdirSync(FIXTURES_DIR).filter((name) => name.endsWith('.ts')).sort()) {
    const name = file.slice(0, -'.ts'.length);
    if (NOT_ONE_RULE_FIXTURES.has(name)) continue;
    const module = (await import(resolve(FIXTURES_DIR, file))) as { default: Classifier };
    targets.push(createClassifierTarget({ name, kind: 'classifier' }, module.default));
  }
  for (const [name, classify] of Object.entries(CASE_TABLE_FIXTURES)) {
    targets.push(createClassifierTarget({ name: `case-table:${name}`, kind: 'classifier' }, classify));
  }
  return targets;
}

// Reads one member of the response's result from a JSON body or from the SSE event the
// reference took as the answer (the first data line that parses to a message with a result).
function readResultMember(input: ClassifierInput, name: string): unknown {
  const texts = /event-stream/i.test(input.contentType ?? '')
    ? input.body.split(/\r\n|\r|\n/).filter((line) => line.startsWith('data:')).map((line) => line.slice(5))
    : [input.body];
  for (const text of texts) {
    const parsed = parseJsonText(text);
    if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null) continue;
    const result = (parsed.value as { result?: unknown }).result;
    if (typeof result === 'object' && result !== null) return (result as Record<string, unknown>)[name];
  }
  return undefined;
}
