// The eleven published cases, read from cases/ and fed to the reference classifier (and to the
// published-shape fixture) with their bodies as the mock server writes them.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import classifyPublishedShape from '../../test/fixtures/classifiers/published-shape.js';
import { getExpectedVerdict, type Case, type ExchangeSpec, type IdMode } from '../cases/case-types.js';
import { loadCases } from '../cases/load-cases.js';
import { runMatrix } from '../run/run-matrix.js';
import { createClassifierTarget } from '../targets/classifier-target.js';
import type { ClassifierInput, ProtocolVersion } from '../vocabulary/types.js';
import { classifyReference } from './reference.js';
import { makeClassifierInput } from './test-inputs.js';

const CASES_DIR = resolve(import.meta.dirname, '../../cases');
const REQUEST_ID = 7;

function listCaseFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? listCaseFiles(join(dir, entry.name)) : entry.name.endsWith('.json') ? [join(dir, entry.name)] : [],
  );
}

function renderId(mode: IdMode | undefined): unknown {
  if (mode === undefined || mode === 'echo') return REQUEST_ID;
  if (typeof mode === 'object') return mode.literal;
  return { omit: undefined, null: null, 'as-string': String(REQUEST_ID), 'as-number': REQUEST_ID, 'as-float': REQUEST_ID }[mode];
}

// Only the body kinds the published cases use (json, raw); the mock server renders the rest.
function toInput(exchange: ExchangeSpec, protocolVersion: ProtocolVersion): ClassifierInput {
  const { response } = exchange;
  const body = response.body;
  let text = '';
  if (body && 'json' in body) {
    const message = body.json as Record<string, unknown>;
    const id = renderId(response.id);
    text = JSON.stringify(id === undefined ? message : { ...message, id });
  } else if (body && 'raw' in body) {
    text = body.raw;
  } else if (body !== undefined) {
    throw new Error('published cases only use json and raw bodies');
  }
  const contentType = response.contentType === null ? undefined : (response.contentType ?? 'application/json');
  return makeClassifierInput({ status: response.status ?? 200, body: text, contentType, expectedId: REQUEST_ID, protocolVersion });
}

const published = listCaseFiles(CASES_DIR)
  .map((file) => JSON.parse(readFileSync(file, 'utf8')) as Case)
  .filter((entry) => entry.origin === 'article');

const rows = published.flatMap((entry) =>
  entry.versions.flatMap((version) =>
    entry.exchanges.map((exchange, index) => ({
      name: `${entry.id} #${index + 1} under ${version}`,
      input: toInput(exchange, version),
      expected: getExpectedVerdict(exchange, version),
    })),
  ),
);

describe('the eleven published cases', () => {
  test('are all present', () => {
    expect(published).toHaveLength(11);
  });

  test.each(rows)('reference: $name', ({ input, expected }) => {
    expect(classifyReference(input)).toMatchObject(expected);
  });

  // Exactly the article's input: no headers, no content type, no version, no request, no bytes.
  test.each(rows)('reference given only { status, body, expectedId }: $name', ({ input, expected }) => {
    const { status, body, expectedId } = input;
    const verdict = classifyReference({ status, body, expectedId });
    expect(verdict.detail ?? '').not.toContain('classifier bug');
    expect(verdict).toMatchObject(expected);
  });

  test.each(rows)('published-shape fixture: $name', ({ input, expected }) => {
    expect(classifyPublishedShape(input)).toMatchObject(expected);
  });
});

// The harness hands `body` over as Response.text() would: a classifier written against fetch
// (the published shape does JSON.parse(body)) reads a BOM-prefixed body as its fetch pipeline does.
describe('the published-shape fixture through the harness', () => {
  test.each(['direct', 'http'] as const)('passes http-200-utf8-bom in %s mode', async (mode) => {
    const cases = (await loadCases()).filter((item) => item.case.id === 'http-200-utf8-bom');
    const target = createClassifierTarget({ name: 'published-shape', kind: 'classifier' }, classifyPublishedShape);
    const result = await runMatrix({ cases, targets: [target], mode, concurrency: 2, timeoutMs: 5000 });
    expect(result.cells.map((cell) => `${cell.protocolVersion} ${cell.status} ${cell.actual.map((verdict) => verdict?.outcome).join(',')}`)).toEqual([
      '2025-03-26 pass JSONRPC_ERROR',
      '2025-06-18 pass JSONRPC_ERROR',
      '2025-11-25 pass JSONRPC_ERROR',
      '2026-07-28 pass JSONRPC_ERROR',
    ]);
  });
});
