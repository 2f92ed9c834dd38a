// The rules of the observation record (observe-call.mjs), each stated on its own: what an
// application could read of what the library threw or returned is kept, exactly, and nothing is
// made up — no key for what the error does not have, no class it is not an instance of, every cut
// marked where it is made.
import { describe, expect, it } from 'vitest';

interface ObserveModule {
  observeThrown(error: unknown, classes?: Record<string, unknown>): Record<string, unknown>;
  preview(value: unknown): unknown;
  collectErrorClasses(moduleNamespace: unknown): Record<string, unknown>;
  PREVIEW_CAPS: { depth: number; string: number; items: number; keys: number };
}
// A literal path, so `vitest related` selects this file for the module (`as string`: it has no type declarations).
const observe = (await import('./observe-call.mjs' as string)) as ObserveModule;
const { PREVIEW_CAPS } = observe;

describe('observeThrown: a thrown value that is not an object', () => {
  it.each([
    ['a string', 'boom', { class: 'string', name: '', message: 'boom', value: 'boom' }],
    ['a number', 42, { class: 'number', name: '', message: '42', value: 42 }],
    ['null', null, { class: 'object', name: '', message: 'null', value: null }],
    ['undefined', undefined, { class: 'undefined', name: '', message: 'undefined', value: '[undefined]' }],
  ])('is recorded as its type, its text and its value: %s', (_title, thrown, record) => {
    expect(observe.observeThrown(thrown)).toEqual(record);
  });

  it('a thrown function is read as an object: its class, its name and its own properties', () => {
    const thrown = Object.assign(function thrower() {}, { code: 'E_FN' });
    expect(observe.observeThrown(thrown)).toEqual({ class: 'Function', name: 'thrower', message: '', code: 'E_FN' });
  });
});

describe('observeThrown: only what the error has', () => {
  it('an error with nothing but a message has no other key, not even one left undefined', () => {
    expect(observe.observeThrown(new TypeError('bad'), { RangeError })).toStrictEqual({ class: 'TypeError', name: 'TypeError', message: 'bad' });
  });

  it('a class entry that is not a function is never claimed, even if instanceof would say yes', () => {
    const liar = { [Symbol.hasInstance]: () => true };
    expect(observe.observeThrown(new Error('x'), { Liar: liar, Error }).instanceOf).toEqual(['Error']);
  });

  it('a class whose instanceof check throws is not claimed, and the record is still made', () => {
    class Hostile {
      static [Symbol.hasInstance](): boolean {
        throw new Error('no');
      }
    }
    expect(observe.observeThrown(new Error('x'), { Hostile })).toEqual({ class: 'Error', name: 'Error', message: 'x' });
  });

  it('a code is kept only as a string or a number', () => {
    expect(observe.observeThrown(Object.assign(new Error('x'), { code: -32001 })).code).toBe(-32001);
    expect(observe.observeThrown(Object.assign(new Error('x'), { code: { nested: 1 } }))).not.toHaveProperty('code');
  });

  it('the status is the first number of status, statusCode and data.status', () => {
    expect(observe.observeThrown(Object.assign(new Error('x'), { status: 503, statusCode: 500 })).status).toBe(503);
    expect(observe.observeThrown(Object.assign(new Error('x'), { statusCode: 502 })).status).toBe(502);
    expect(observe.observeThrown(Object.assign(new Error('x'), { status: '500', data: { status: 404 } })).status).toBe(404);
    expect(observe.observeThrown(Object.assign(new Error('x'), { status: '500', data: 'text' }))).not.toHaveProperty('status');
  });

  it('causes are followed three deep, and no further', () => {
    let error: Error = new Error('e4');
    for (const message of ['e3', 'e2', 'e1', 'e0']) error = new Error(message, { cause: error });
    const record = observe.observeThrown(error);
    expect(record).toMatchObject({ message: 'e0', cause: { message: 'e1', cause: { message: 'e2', cause: { message: 'e3' } } } });
    expect(((record.cause as Record<string, Record<string, Record<string, unknown>>>).cause!.cause as Record<string, unknown>).cause).toBeUndefined();
  });

  it("other own properties are kept, the known ones apart, at most PREVIEW_CAPS.keys of them", () => {
    const many = Object.fromEntries(Array.from({ length: PREVIEW_CAPS.keys + 1 }, (_, i) => [`p${i}`, i]));
    const record = observe.observeThrown(Object.assign(new Error('x'), { statusCode: 500, ...many }));
    expect(Object.keys(record.properties as object)).toHaveLength(PREVIEW_CAPS.keys);
    expect(record.properties).not.toHaveProperty('statusCode');
    expect(record.properties).toHaveProperty('p0', 0);
  });

  it('the class of an object without a constructor is "(anonymous)", of one whose constructor cannot be read "(unreadable)"', () => {
    expect(observe.observeThrown(Object.create(null)).class).toBe('(anonymous)');
    const Nameless = Object.defineProperty(class {}, 'name', { value: '' });
    expect(observe.observeThrown(new Nameless()).class).toBe('(anonymous)');
    const hostile = Object.defineProperty({}, 'constructor', {
      get() {
        throw new Error('no');
      },
    });
    expect(observe.observeThrown(hostile).class).toBe('(unreadable)');
  });

  it('a name or message that is not a string is read as text', () => {
    expect(observe.observeThrown({ name: 5, message: false })).toEqual({ class: 'Object', name: '5', message: 'false' });
  });
});

describe('collectErrorClasses', () => {
  it('takes the exported error classes and nothing else', () => {
    class LibError extends Error {}
    // An object whose `prototype` is an error is not a class an error can be an instance of.
    const posing = { prototype: new Error('p') };
    expect(observe.collectErrorClasses({ LibError, helper: () => 1, value: 1, Plain: class {}, posing })).toEqual({ LibError });
  });
});

describe('preview: a returned value as JSON, cut only where it says so', () => {
  it('keeps null, booleans, finite numbers and short strings as they are', () => {
    expect(observe.preview({ a: null, b: false, c: true, d: 1.5, e: 's' })).toEqual({ a: null, b: false, c: true, d: 1.5, e: 's' });
  });

  it('marks what JSON cannot hold', () => {
    expect(observe.preview([NaN, () => 1, function named() {}, 10n, Symbol('s')])).toEqual(['[number NaN]', '[function anonymous]', '[function named]', '[bigint 10]', '[Symbol(s)]']);
  });

  it(`cuts a string past ${PREVIEW_CAPS.string} characters, and not one at it`, () => {
    expect(observe.preview('x'.repeat(PREVIEW_CAPS.string))).toBe('x'.repeat(PREVIEW_CAPS.string));
    expect(observe.preview('x'.repeat(PREVIEW_CAPS.string + 1))).toBe(`${'x'.repeat(PREVIEW_CAPS.string)}[… 1 more characters]`);
  });

  it(`cuts an array past ${PREVIEW_CAPS.items} items, and not one at it`, () => {
    expect(observe.preview(Array.from({ length: PREVIEW_CAPS.items }, (_, i) => i))).toHaveLength(PREVIEW_CAPS.items);
    const cut = observe.preview(Array.from({ length: PREVIEW_CAPS.items + 1 }, (_, i) => i)) as unknown[];
    expect(cut).toHaveLength(PREVIEW_CAPS.items + 1);
    expect(cut.at(-2)).toBe(PREVIEW_CAPS.items - 1);
    expect(cut.at(-1)).toBe('[… 1 more items]');
  });

  it(`cuts an object past ${PREVIEW_CAPS.keys} keys, and not one at it`, () => {
    const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));
    expect(observe.preview(keys(PREVIEW_CAPS.keys))).toEqual(keys(PREVIEW_CAPS.keys));
    expect(observe.preview(keys(PREVIEW_CAPS.keys + 1))).toEqual({ ...keys(PREVIEW_CAPS.keys), '@@more': '[… 1 more keys]' });
  });

  it(`goes ${PREVIEW_CAPS.depth} levels deep and marks what is below`, () => {
    let object: unknown = { leaf: 1 };
    let array: unknown = [1];
    for (let i = 0; i < PREVIEW_CAPS.depth; i++) {
      object = { a: object };
      array = [array];
    }
    let seen = observe.preview(object) as Record<string, unknown>;
    for (let i = 0; i < PREVIEW_CAPS.depth; i++) seen = seen.a as Record<string, unknown>;
    expect(seen).toBe('[object]');
    let items = observe.preview(array) as unknown[];
    for (let i = 0; i < PREVIEW_CAPS.depth - 1; i++) items = items[0] as unknown[];
    expect(items).toEqual(['[array of 1]']);
  });

  it('keeps an error inside a returned value as an error record', () => {
    expect(observe.preview({ failed: new RangeError('too far') })).toEqual({ failed: { '@@error': { class: 'RangeError', name: 'RangeError', message: 'too far' } } });
  });

  it('keeps enumerable symbol keys beside the string keys, and no hidden ones', () => {
    const hidden = Symbol('hidden');
    const value = { text: 'a', [Symbol('content')]: 'b' };
    Object.defineProperty(value, hidden, { value: 'c', enumerable: false });
    expect(observe.preview(value)).toEqual({ text: 'a', '@@Symbol(content)': 'b' });
  });
});
