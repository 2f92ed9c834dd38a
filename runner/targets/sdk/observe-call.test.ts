// The observation record (observe-call.mjs): what a library threw or returned, as capped plain JSON.
import { describe, expect, it } from 'vitest';

interface ObserveModule {
  observeThrown(error: unknown, classes?: Record<string, unknown>): Record<string, unknown>;
  observeReturned(value: unknown): { returned: unknown };
  preview(value: unknown): unknown;
  collectErrorClasses(moduleNamespace: unknown): Record<string, unknown>;
  PREVIEW_CAPS: { depth: number; string: number; items: number; keys: number };
  MESSAGE_CAP: number;
}
// A literal path, so `vitest related` selects this file for the module (`as string`: it has no type declarations).
const observe = (await import('./observe-call.mjs' as string)) as ObserveModule;

class BaseError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'BaseError';
  }
}
class ScopeError extends BaseError {
  requiredScope = 'files:write';
}

describe('observeThrown keeps what an application can read of an error', () => {
  it('records class, name, message, code, the status inside data and the classes it is an instance of', () => {
    const record = observe.observeThrown(new ScopeError('CLIENT_HTTP_FORBIDDEN', 'insufficient scope', { status: 403 }), { BaseError, ScopeError, TypeError });
    expect(record).toEqual({
      class: 'ScopeError',
      name: 'BaseError',
      message: 'insufficient scope',
      instanceOf: ['BaseError', 'ScopeError'],
      code: 'CLIENT_HTTP_FORBIDDEN',
      status: 403,
      data: { status: 403 },
      properties: { requiredScope: 'files:write' },
    });
  });
  it('reads statusCode and status as numbers only, and numeric codes as numbers', () => {
    const error = Object.assign(new Error('POSTing to endpoint (HTTP 503)'), { statusCode: 503, code: -32603 });
    expect(observe.observeThrown(error)).toMatchObject({ class: 'Error', code: -32603, status: 503 });
    expect(observe.observeThrown(Object.assign(new Error('x'), { status: '503' }))).not.toHaveProperty('status');
  });
  it('keeps Zod issues as data (Zod 3 and Zod 4 both carry an issues array)', () => {
    const error = Object.assign(new Error('[{"code":"invalid_union"}]'), { name: 'ZodError', issues: [{ code: 'invalid_union', path: ['result'], message: 'Invalid input' }] });
    expect(observe.observeThrown(error).issues).toEqual([{ code: 'invalid_union', path: ['result'], message: 'Invalid input' }]);
  });
  it("keeps an error's message up to MESSAGE_CAP (longer than other strings) and marks what it cuts", () => {
    const issues = JSON.stringify(Array.from({ length: 100 }, (_, i) => ({ code: 'invalid_union', path: ['content', i] })), null, 2);
    expect(issues.length).toBeGreaterThan(observe.PREVIEW_CAPS.string);
    expect(issues.length).toBeLessThan(observe.MESSAGE_CAP);
    expect(observe.observeThrown(new Error(issues)).message).toBe(issues);
    const huge = 'x'.repeat(observe.MESSAGE_CAP + 5);
    expect(observe.observeThrown(new Error(huge)).message).toBe(`${'x'.repeat(observe.MESSAGE_CAP)}[… 5 more characters]`);
  });

  it('follows causes three levels deep', () => {
    const inner = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    const error = new Error('fetch failed', { cause: new Error('wrap', { cause: new Error('wrap2', { cause: inner }) }) });
    const record = observe.observeThrown(error) as { cause: { cause: { cause: { code: string; cause?: unknown } } } };
    expect(record.cause.cause.cause.code).toBe('ECONNRESET');
    expect(observe.observeThrown(new Error('a', { cause: error }))).toMatchObject({ cause: { cause: { cause: { message: 'wrap2' } } } });
  });
  it('records a thrown non-error value by its type and text', () => {
    expect(observe.observeThrown('boom')).toEqual({ class: 'string', name: '', message: 'boom', value: 'boom' });
    expect(observe.observeThrown(undefined)).toMatchObject({ class: 'undefined', message: 'undefined' });
  });
  it('survives getters that throw and instanceof checks that throw', () => {
    const error = new Error('x');
    Object.defineProperty(error, 'data', { enumerable: true, get: () => { throw new Error('nope'); } });
    const hostile = { [Symbol.hasInstance]: () => { throw new Error('no'); } };
    expect(observe.observeThrown(error, { hostile })).toMatchObject({ data: '[getter threw: nope]' });
  });
});

describe('collectErrorClasses', () => {
  it('takes the exported Error subclasses of a module and nothing else', () => {
    const module = { BaseError, ScopeError, helper: () => 1, value: 3, Plain: class {} };
    expect(Object.keys(observe.collectErrorClasses(module))).toEqual(['BaseError', 'ScopeError']);
    expect(observe.collectErrorClasses(undefined)).toEqual({});
  });
});

describe('preview caps every part and marks what it cut', () => {
  it('cuts long strings, long arrays, many keys and deep nesting with a marker', () => {
    const { string, items, keys, depth } = observe.PREVIEW_CAPS;
    expect(observe.preview('a'.repeat(string + 5))).toBe(`${'a'.repeat(string)}[… 5 more characters]`);
    expect((observe.preview(Array.from({ length: items + 2 }, (_, i) => i)) as unknown[]).at(-1)).toBe('[… 2 more items]');
    const many = Object.fromEntries(Array.from({ length: keys + 1 }, (_, i) => [`k${i}`, i]));
    expect(observe.preview(many)).toHaveProperty('@@more', '[… 1 more keys]');
    let nested: unknown = 'leaf';
    for (let i = 0; i < depth + 2; i++) nested = { n: nested };
    expect(JSON.stringify(observe.preview(nested))).toContain('[object]');
  });
  it('makes cycles, functions, symbols, bigints and undefined JSON-safe, and keeps symbol-keyed properties', () => {
    const value: Record<string | symbol, unknown> = { f: function named() {}, b: 10n, u: undefined, s: Symbol('s') };
    value.self = value;
    value[Symbol('mastra.content')] = [{ type: 'text', text: 'hidden' }];
    expect(observe.preview(value)).toEqual({ f: '[function named]', b: '[bigint 10]', u: '[undefined]', s: '[Symbol(s)]', self: '[circular]', '@@Symbol(mastra.content)': [{ type: 'text', text: 'hidden' }] });
    expect(JSON.parse(JSON.stringify(observe.observeReturned(value)))).toHaveProperty('returned.self', '[circular]');
  });
  it('keeps a repeated (not circular) value twice', () => {
    const shared = { a: 1 };
    expect(observe.preview({ x: shared, y: shared })).toEqual({ x: { a: 1 }, y: { a: 1 } });
  });
});
