// Every fixture under test/fixtures/classifiers is wrong in exactly one rule: it differs from
// the reference on its witness input and agrees with it where that rule plays no part.
import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, test } from 'vitest';
import type { ClassifierInput, Outcome } from '../vocabulary/types.js';
import { readVerdict } from './read-verdict.js';
import { classifyReference } from './reference.js';
import {
  makeClassifierInput as input,
  makeResultMessage as response,
  makeSseBody as sse,
  makeSseInput,
  makeToolResult as tool,
} from './test-inputs.js';

const FIXTURES_DIR = resolve(import.meta.dirname, '../../test/fixtures/classifiers');
const success = response(tool());

interface Witness {
  input: ClassifierInput;
  /** What the fixture concludes there (the reference concludes something else). */
  outcome: Outcome;
}

const WITNESSES: Record<string, Witness> = {
  'status-only': { input: input({ message: response(tool({ isError: true })) }), outcome: 'TOOL_SUCCESS' },
  'ignores-is-error': { input: input({ message: response(tool({ isError: true })) }), outcome: 'TOOL_SUCCESS' },
  'ignores-id': { input: input({ message: response(tool(), 99) }), outcome: 'TOOL_SUCCESS' },
  'no-result-type-fallback': { input: input({ message: response({ content: [] }) }), outcome: 'INVALID_TOOL_RESULT' },
  'no-sse': { input: makeSseInput(sse(success)), outcome: 'MALFORMED_JSON' },
  'body-before-status': { input: input({ status: 500, message: success }), outcome: 'TOOL_SUCCESS' },
  'lenient-envelope': { input: input({ message: { ...success, error: { code: -32603, message: 'm' } } }), outcome: 'TOOL_SUCCESS' },
  'no-content-check': { input: input({ message: response(tool({ content: [{ type: 'video' }] })) }), outcome: 'TOOL_SUCCESS' },
  'strict-id-float': { input: input({ body: '{"jsonrpc":"2.0","id":1.0,"result":{"content":[]}}' }), outcome: 'INVALID_ENVELOPE' },
  'unchecked-elicitation-params': {
    input: input({ message: response({ resultType: 'input_required', inputRequests: { k: { method: 'elicitation/create', params: { mode: 'form', message: 'm' } } } }) }),
    outcome: 'INPUT_REQUIRED',
  },
  'published-shape': { input: makeSseInput(sse(success)), outcome: 'MALFORMED_JSON' },
};

// Inputs where no fixture's broken rule applies (the throwing one aside): all must agree.
const NEUTRAL: ClassifierInput[] = [
  input({ message: success }),
  input({ status: 503, body: '' }),
  input({ message: { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'bad' } } }),
  input({ message: response({ resultType: 'input_required', requestState: 's' }) }),
];

async function loadFixture(name: string): Promise<(input: ClassifierInput) => unknown> {
  const module = (await import(pathToFileURL(resolve(FIXTURES_DIR, `${name}.ts`)).href)) as { default: unknown };
  if (typeof module.default !== 'function') throw new Error(`${name}.ts has no default-exported function`);
  return module.default as (input: ClassifierInput) => unknown;
}

const fixtureNames = readdirSync(FIXTURES_DIR)
  .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
  .map((file) => file.slice(0, -'.ts'.length))
  .sort();

describe('classifier fixtures', () => {
  // `throws` and `never-returns` break the target contract itself; the runner's tests cover them.
  test('every fixture has a witness (or breaks the contract outright)', () => {
    expect(fixtureNames.filter((name) => !['throws', 'never-returns'].includes(name) && !(name in WITNESSES))).toEqual([]);
  });

  test.each(Object.entries(WITNESSES))('%s differs from the reference on its witness', async (name, witness) => {
    const classify = await loadFixture(name);
    const read = readVerdict(classify(witness.input));
    expect(read).toMatchObject({ verdict: { outcome: witness.outcome } });
    expect(classifyReference(witness.input).outcome).not.toBe(witness.outcome);
  });

  test.each(Object.keys(WITNESSES))('%s agrees with the reference where its rule plays no part', async (name) => {
    const classify = await loadFixture(name);
    // Its one rule ("the status decides") covers every 2xx body: only success and non-2xx are neutral.
    const neutral = name === 'status-only' ? NEUTRAL.slice(0, 2) : NEUTRAL;
    for (const given of neutral) {
      const read = readVerdict(classify(given));
      expect(read).toMatchObject({ verdict: { outcome: classifyReference(given).outcome } });
    }
  });

  test('throws throws on every input', async () => {
    const classify = await loadFixture('throws');
    for (const given of NEUTRAL) expect(() => classify(given)).toThrow(/deliberately broken/);
  });
});
