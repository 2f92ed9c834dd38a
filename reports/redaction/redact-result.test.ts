// redactCell copies only what redaction changes, and copies it faithfully: key order, and a
// `__proto__` key kept as data (JSON.parse makes such keys; an assignment would set a prototype).
import { describe, expect, it } from 'vitest';
import { makeCell, makeCheck, makeRecording, SECRETS } from '../../test/make-run-result.js';
import { redactCell } from './redact-result.js';

describe('redactCell', () => {
  it('returns the very cell when nothing in it needs redacting', () => {
    const cell = makeCell({ status: 'fail', recording: makeRecording() });
    expect(redactCell(cell)).toBe(cell);
  });

  it('redacts a secret under a __proto__ key as data, keeping key order and the prototype', () => {
    const actual = JSON.parse(`{"first":"plain","__proto__":{"token":"token=${SECRETS.bearer}"},"last":"Bearer ${SECRETS.bearer}"}`) as Record<string, unknown>;
    const cell = makeCell({ status: 'fail', checks: [makeCheck({ passed: false, actual })] });
    const check = redactCell(cell).checks[0]!;
    const redacted = check.actual as Record<string, unknown>;
    expect(Object.keys(redacted)).toEqual(['first', '__proto__', 'last']);
    expect(Object.getPrototypeOf(redacted)).toBe(Object.prototype);
    expect(JSON.stringify(redacted)).toBe('{"first":"plain","__proto__":{"token":"token=[REDACTED]"},"last":"Bearer [REDACTED]"}');
    // The input is left as it was.
    expect(JSON.stringify(actual)).toContain(SECRETS.bearer);
  });

  it('replaces secret headers whole and leaves the other headers of the exchange in order', () => {
    const recording = makeRecording({ headers: { 'content-type': 'application/json', 'x-api-key': 'short', 'set-cookie': `sid=${SECRETS.cookie}` } });
    const headers = redactCell(makeCell({ recording })).recording!.exchanges[0]!.response!.headers;
    expect(headers).toEqual({ 'content-type': 'application/json', 'x-api-key': '[REDACTED]', 'set-cookie': '[REDACTED]' });
    expect(Object.keys(headers)).toEqual(['content-type', 'x-api-key', 'set-cookie']);
  });

  it("redacts what a library threw or returned (cell.observed) like every other text", () => {
    const observed = {
      calls: [
        { threw: { class: 'SdkHttpError', name: 'SdkHttpError', message: `Error POSTing to endpoint: Authorization: Bearer ${SECRETS.bearer}`, data: { text: `token=${SECRETS.bearer}` } } },
        { returned: { content: [{ type: 'text', text: `Bearer ${SECRETS.bearer}` }] } },
      ],
      toolCallsSent: 2,
    };
    const published = JSON.stringify(redactCell(makeCell({ status: 'error', reason: 'adapter gap', observed })).observed);
    expect(published).not.toContain(SECRETS.bearer);
    expect(published).toContain('[REDACTED]');
    expect(JSON.stringify(observed)).toContain(SECRETS.bearer);
  });
});
