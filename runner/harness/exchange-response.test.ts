// decodeBody gives a classifier what fetch gives a client: Response.text() and Response.arrayBuffer().
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodeBody } from './exchange-response.js';

const BOM = [0xef, 0xbb, 0xbf];
const json = '{"jsonrpc":"2.0","id":1,"result":{}}';

describe('decodeBody', () => {
  it.each([
    ['no BOM', Buffer.from(json), json],
    ['one leading BOM is dropped', Buffer.from([...BOM, ...Buffer.from(json)]), json],
    ['a BOM after the start stays', Buffer.from(` \uFEFF${json}`), ` \uFEFF${json}`],
    ['an invalid sequence becomes U+FFFD', Buffer.from([0x7b, 0xff, 0x7d]), '{\uFFFD}'],
  ])('%s, as Response.text() does', async (_name, bytes, text) => {
    const decoded = decodeBody(bytes, undefined);
    expect(decoded.body).toBe(text);
    expect(decoded.body).toBe(await new Response(bytes).text());
    expect(decoded.bodyBytes).toEqual(new Uint8Array(bytes));
  });

  it('drops only the first of two BOMs (WHATWG Encoding "UTF-8 decode"; undici in Node 20 drops both)', () => {
    const bytes = Buffer.from([...BOM, ...BOM, ...Buffer.from(json)]);
    expect(decodeBody(bytes, undefined).body).toBe(`\uFEFF${json}`);
  });

  it('gives the gunzipped bytes, BOM included, as Response.arrayBuffer() does', () => {
    const plain = Buffer.from([...BOM, ...Buffer.from(json)]);
    const decoded = decodeBody(gzipSync(plain), 'gzip');
    expect(decoded.body).toBe(json);
    expect(decoded.bodyBytes).toEqual(new Uint8Array(plain));
  });

  it('hands out a plain Uint8Array that shares no memory with the input', () => {
    const input = Buffer.from(json);
    const decoded = decodeBody(input, undefined);
    expect(Buffer.isBuffer(decoded.bodyBytes)).toBe(false);
    input[0] = 0x20;
    expect(decoded.bodyBytes[0]).toBe(0x7b);
  });
});
