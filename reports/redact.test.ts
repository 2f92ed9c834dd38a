import { describe, expect, it } from 'vitest';
import { REDACTED, redactText, sanitizeHeaders, stripControl } from './redact.js';

describe('stripControl', () => {
  it.each([
    ['\u001b[31mred\u001b[0m', 'red'],
    ['\u001b]0;window title\u0007after', 'after'],
    ['a\u0000b\u0007c\u000bd\u007fe\u0085f', 'abcdef'],
    ['8-bit CSI \u009b1;31mred', '8-bit CSI red'],
    ['tab\tnewline\ncr\r', 'tab\tnewline\ncr\r'],
    ['lone \ud800 surrogate', 'lone  surrogate'],
    ['pair 😀 kept', 'pair 😀 kept'],
    ['\ufffe\uffff', ''],
  ])('%j becomes %j', (input, expected) => {
    expect(stripControl(input)).toBe(expected);
  });
});

describe('redactText', () => {
  it.each([
    ['Authorization: Bearer abc.def-123456', 'Authorization: [REDACTED]'],
    ['curl -H "authorization: Basic dXNlcjpwYXNz"', 'curl -H "authorization: [REDACTED]'],
    ['sent Bearer sk-live-1234567890', 'sent Bearer [REDACTED]'],
    ['GET /cb?token=s3cr3tvalue&x=1', 'GET /cb?token=[REDACTED]&x=1'],
    ['{"access_token": "abcd1234efgh"}', '{"access_token": "[REDACTED]"}'],
    ['api_key=ZZZZ9999', 'api_key=[REDACTED]'],
    ['Cookie: a=1; b=2', 'Cookie: [REDACTED]'],
    ['jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.sig', `jwt ${REDACTED}`],
    ['key 0123456789abcdef0123456789abcdef', `key ${REDACTED}`],
    ['b64 QWxhZGRpbjpvcGVuIHNlc2FtZQ9xYz12ZXJ5bG9uZw==', `b64 ${REDACTED}`],
  ])('%j becomes %j', (input, expected) => {
    expect(redactText(input)).toBe(expected);
  });

  it.each(['HTTP/1.1 503 Service Unavailable', '{"jsonrpc":"2.0","id":1,"result":{"isError":true}}', 'mcp-session-id missing', 'retry after 2000 ms'])(
    'leaves ordinary text alone: %j',
    (text) => {
      expect(redactText(text)).toBe(text);
    },
  );
});

describe('sanitizeHeaders', () => {
  it('replaces secret header values whole, whatever their case', () => {
    expect(sanitizeHeaders({ Authorization: 'Bearer x', cookie: 'a=b', 'Set-Cookie': 'sid=1', 'proxy-authorization': 'Basic y', accept: 'text/event-stream' })).toEqual([
      ['Authorization', REDACTED],
      ['cookie', REDACTED],
      ['Set-Cookie', REDACTED],
      ['proxy-authorization', REDACTED],
      ['accept', 'text/event-stream'],
    ]);
  });
});
