import { describe, expect, it } from 'vitest';
import { digestCaseBehaviour } from './case-behaviour.js';

const base = {
  id: 'http-503-empty-body',
  title: 'HTTP 503, empty body',
  description: 'See WIRE-FACTS § 3.',
  policy: 'the table lets the status win',
  spec: [{ ref: 'T25 § Sending Messages' }],
  layer: 'transport',
  versions: ['2025-11-25'],
  exchanges: [{ respond: { status: 503, body: '' } }],
};
const digest = (value: object) => digestCaseBehaviour({ case: value as never });

describe("a truth recording follows a case's behaviour, not its words", () => {
  it('a reworded description, policy, title or spec reference keeps the digest', () => {
    expect(digest({ ...base, description: 'The server is down for a moment.', policy: 'any non-2xx status wins over the body', title: 'Other', spec: [] })).toBe(digest(base));
  });
  it('a changed exchange, layer or version list changes it', () => {
    expect(digest({ ...base, exchanges: [{ respond: { status: 502, body: '' } }] })).not.toBe(digest(base));
    expect(digest({ ...base, layer: 'protocol' })).not.toBe(digest(base));
    expect(digest({ ...base, versions: ['2025-11-25', '2026-07-28'] })).not.toBe(digest(base));
  });
  it('does not depend on the order of keys', () => {
    const { exchanges, layer, ...rest } = base;
    expect(digest({ layer, exchanges, ...rest })).toBe(digest(base));
  });
});
