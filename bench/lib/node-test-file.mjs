// @ts-check
// Writes the reference for direct mode: the published approach, one `node --test` file with
// eleven tests, each calling a small classifier on a canned response (the eleven article cases).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderDirectResponse } from '../../dist/runner/harness/render-direct-response.js';

// The classifier the published article describes: status, JSON, envelope, error, result shape.
const CLASSIFIER_SOURCE = `
function classify({ status, body, expectedId }) {
  if (status < 200 || status > 299) return { outcome: 'HTTP_ERROR', status };
  let message;
  try { message = JSON.parse(body); } catch { return { outcome: 'MALFORMED_JSON' }; }
  if (typeof message !== 'object' || message === null || message.id !== expectedId) return { outcome: 'INVALID_ENVELOPE' };
  if ('result' in message === 'error' in message) return { outcome: 'INVALID_ENVELOPE' };
  if (message.error) return { outcome: 'JSONRPC_ERROR', code: message.error.code };
  const result = message.result;
  if (result.resultType === 'input_required') return { outcome: 'INPUT_REQUIRED' };
  if (!Array.isArray(result.content)) return { outcome: 'INVALID_TOOL_RESULT' };
  return { outcome: result.isError === true ? 'TOOL_ERROR' : 'TOOL_SUCCESS' };
}`;

/** Writes `published.test.mjs` into `dir` from the article cases' first exchanges; returns its path. */
export function writeNodeTestFile(dir, loadedCases) {
  const article = loadedCases.filter((item) => item.case.origin === 'article');
  if (article.length !== 11) throw new Error(`expected the eleven published cases, found ${article.length}`);
  const tests = article.map(({ case: item }) => {
    const exchange = item.exchanges[0];
    const response = renderDirectResponse(exchange, { requestId: 1, timeoutMs: 2000 });
    const input = { status: response.status, body: response.body, expectedId: 1 };
    return `test(${JSON.stringify(item.id)}, () => {
  assert.equal(classify(${JSON.stringify(input)}).outcome, ${JSON.stringify(exchange.expect.outcome)});
});`;
  });
  const source = `import { test } from 'node:test';\nimport assert from 'node:assert/strict';\n${CLASSIFIER_SOURCE}\n\n${tests.join('\n\n')}\n`;
  const file = join(dir, 'published.test.mjs');
  writeFileSync(file, source);
  return file;
}
