import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { REDACTED, redactText, sanitizeHeaders, sanitizeText, sanitizeValue, stripControl, toOneLine } from './redact.js';
import { redactCheck } from './redact-result.js';

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
    ['unterminated CSI \u001b[12', 'unterminated CSI 12'],
    ['OSC ended by ST \u001b]8;;http://x\u001b\\link', 'OSC ended by ST link'],
    ['bare 8-bit CSI \u009b', 'bare 8-bit CSI '],
    ['lone low \udc00 and pair \ud83d\ude00', 'lone low  and pair \ud83d\ude00'],
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
    ['Proxy-Authorization: Basic dXNlcjpwYXNz', 'Proxy-Authorization: [REDACTED]'],
    ['Set-Cookie: sid=abc123; HttpOnly\nnext line', 'Set-Cookie: [REDACTED]\nnext line'],
    ['{"authorization":"Bearer abc","accept":"text/event-stream"}', '{"authorization":"[REDACTED]","accept":"text/event-stream"}'],
    ['{\\"cookie\\": \\"a=1\\", \\"x\\": 1}', '{\\"cookie\\": \\"[REDACTED]\\", \\"x\\": 1}'],
    ['Authorization: token ghp_16C7e42F292c6912E7710c838347Ae178B4a', 'Authorization: [REDACTED]'],
    ['use Bearer dXNlcjpwYXNzd29yZA in the header', `use Bearer ${REDACTED} in the header`],
    ['key sk-proj-AbCdEf0123456789xyz', `key ${REDACTED}`],
    ['export GITHUB_TOKEN ghp_16C7e42F292c6912E7710c838347Ae178B4a', `export GITHUB_TOKEN ${REDACTED}`],
    ['pat github_pat_11ABCDEFG0abcdefghij_klmnopqrstuvwxyz0123456789', `pat ${REDACTED}`],
    ['slack xoxb-1234567890-abcdefghijkl', `slack ${REDACTED}`],
    ['aws AKIAIOSFODNN7EXAMPLE here', `aws ${REDACTED} here`],
    ['https://api.example/cb?code=1&access_token=abcd1234efgh&state=x', 'https://api.example/cb?code=1&access_token=[REDACTED]&state=x'],
    ['"password": "hunter22"', '"password": "[REDACTED]"'],
  ])('%j becomes %j', (input, expected) => {
    expect(redactText(input)).toBe(expected);
  });

  it.each([
    'HTTP/1.1 503 Service Unavailable',
    '{"jsonrpc":"2.0","id":1,"result":{"isError":true}}',
    'mcp-session-id missing',
    'retry after 2000 ms',
    // Titles and challenges: a scheme name followed by a word or by auth-params is no credential.
    'HTTP 401 with a WWW-Authenticate Bearer challenge',
    'WWW-Authenticate: Bearer resource_metadata="http://127.0.0.1:4321/.well-known/oauth-protected-resource", scope="tools:call"',
    'Bearer realm="mcp", error="invalid_token", error_description="The access token expired"',
    'Bearer error="insufficient_scope", scope="files:write"',
    'Basic realm="Access to the staging site", charset="UTF-8"',
    'the token expired; use Basic authentication',
    // URLs and ordinary content: a long path or a base64 blob is content, not a credential.
    'see https://example.com/docs/Authorization2025/tokenGuide?x=1',
    'http://127.0.0.1:4321/.well-known/oauth-protected-resource/mcp/TenantABC123xyzLongPathSegment',
    '{"type":"image","data":"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="}',
    'task-sk-learn and risk_assessment',
    '"max_tokens": 1024, "token_type": "Bearer"',
  ])(
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

describe('redaction of long and huge texts', () => {
  it('redacts a secret inside a text longer than 2,048 characters (no length is skipped)', () => {
    const text = `${'log line without secrets\n'.repeat(200)}Authorization: Bearer sk-live-4f9aQz7Yb2Xc8Wd1Ve6Uf3Tg0\n${'tail\n'.repeat(100)}`;
    expect(text.length).toBeGreaterThan(2048);
    for (const clean of [redactText(text), sanitizeText(text)]) {
      expect(clean).not.toContain('sk-live-4f9aQz7Yb2Xc8Wd1Ve6Uf3Tg0');
      expect(clean).toContain(`Authorization: ${REDACTED}`);
    }
  });
});

describe('sanitizeValue and redactCheck on values JSON cannot carry', () => {
  it('never throws on a cycle, a BigInt or a throwing toJSON', () => {
    const cyclic: Record<string, unknown> = { token: 'abcd1234efgh' };
    cyclic['self'] = cyclic;
    expect(sanitizeValue(cyclic)).toBe(`{"token":"[REDACTED]","self":"[circular reference]"}`);
    expect(sanitizeValue({ n: 5n })).toBe('{"n":"[BigInt 5]"}');
    expect(sanitizeValue({ toJSON: () => { throw new Error('x'); } })).toBe('"[toJSON threw: Error: x]"');
  });

  it('a published check holds JSON data only, even when built with hostile values', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    const check = redactCheck({ id: 'outcome@1', level: 'MUST', passed: false, message: 'm', expected: 1n, actual: { cyclic, when: new Date(0) } });
    expect(JSON.parse(JSON.stringify(check))).toMatchObject({ expected: '[BigInt 1]', actual: { when: '1970-01-01T00:00:00.000Z' } });
  });
});

describe('toOneLine', () => {
  const reference = (text: string, max = 300) => {
    const line = text.replace(/\s+/g, ' ').trim();
    return line.length > max ? `${line.slice(0, max - 1)}…` : line;
  };

  it('gives what collapsing every whitespace run and trimming gives', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', 'b', ' ', '\n', '\t', '\u2028', '\u00a0', '\ufeff', '\u3000', 'é', '😀', '\u200b') }), fc.integer({ min: 2, max: 40 }), (text, max) => {
        expect(toOneLine(text, max)).toBe(reference(text, max));
      }),
      { seed: 7, numRuns: 500 },
    );
  });
});
