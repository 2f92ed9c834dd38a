// Hostile content planted in wire bodies, headers, target output, check messages, case texts
// and target names must come out escaped or stripped, and secrets redacted, in every format.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { HOSTILE, SECRETS, makeHostileRunResult } from '../test/make-run-result.js';
import { expandHtmlEvidence } from '../test/read-results.js';
import { expandCellRow, unpackEvidence, type DetailsData } from './html/index.js';
import { renderHtml } from './html/index.js';
import { renderJUnit } from './formats/index.js';
import { renderMarkdown } from './formats/index.js';

const result = makeHostileRunResult();
const outputs = {
  junit: renderJUnit(result),
  markdown: renderMarkdown(result),
  html: renderHtml(result),
};
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

describe.each(Object.entries(outputs))('%s output', (_format, output) => {
  it('contains no raw <script>alert payload', () => {
    expect(output).not.toContain('<script>alert(1)');
    expect(output).not.toContain('alert(1)</script>');
  });

  it('contains no ANSI escape or control character', () => {
    expect(output).not.toMatch(CONTROL);
  });

  it.each(Object.entries(SECRETS))('never contains the planted %s secret', (_name, secret) => {
    expect(output).not.toContain(secret);
  });
});

describe('JUnit under hostile input', () => {
  it('is valid XML 1.0 for a strict validator', () => {
    expect(XMLValidator.validate(outputs.junit, { allowBooleanAttributes: false })).toBe(true);
  });

  it('keeps the payload as text once parsed, with ]]> intact but inert', () => {
    const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(outputs.junit) as {
      testsuites: { testsuite: { name: string; testcase: { failure?: { message: string } }[] } };
    };
    const suite = parsed.testsuites.testsuite;
    expect(suite.name).toContain('evil');
    const failure = suite.testcase.find((t) => t.failure)?.failure;
    expect(failure?.message).toContain('<script>alert(1)</script> ]]>');
  });
});

describe('Markdown under hostile input', () => {
  it('escapes pipes, backticks and markup so every table row keeps its column count', () => {
    const rows = outputs.markdown.split('\n').filter((l) => l.startsWith('|'));
    const columns = rows.map((r) => r.split(/(?<!\\)\|/).length);
    expect(new Set(columns).size).toBe(1);
    expect(outputs.markdown).toContain('&lt;script&gt;');
    expect(outputs.markdown).not.toMatch(/(?<!\\)`tick/);
    expect(outputs.markdown).not.toContain('[link](http://evil.example)');
  });

  it('keeps each failing cell on one line', () => {
    const items = outputs.markdown.split('\n').filter((l) => l.startsWith('- '));
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) expect(item).not.toContain('second line\n');
    expect(outputs.markdown).not.toContain(HOSTILE);
  });
});

describe('HTML under hostile input', () => {
  const html = outputs.html;

  it('has exactly two script elements: the JSON data block and the inline script', () => {
    expect(html.match(/<script\b/gi)).toHaveLength(2);
    expect(html).toContain('<script type="application/json" id="cell-data">');
  });

  it('escapes < inside the JSON block so </script> cannot break out, and the data still parses', () => {
    const block = /<script type="application\/json" id="cell-data">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '';
    expect(block).not.toContain('<');
    expect(block).toContain('\\u003cscript\\u003ealert(1)');
    const cell = expandCellRow(JSON.parse(block) as DetailsData, 0) as { transcript: { response?: { headers: [string, string][] } }[] };
    const headers = cell.transcript[0]!.response!.headers;
    expect(headers).toContainEqual(['set-cookie', '[REDACTED]']);
    expect(headers.find(([name]) => name === 'x-evil')?.[1]).toContain('<script>alert(1)</script>');
  });

  it('escapes the payload in rendered markup (case title, target name)', () => {
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('holds no secret and no control character in its evidence blocks either, once unpacked', () => {
    const data = JSON.parse(/<script type="application\/json" id="cell-data">([\s\S]*?)<\/script>/.exec(html)![1]!) as DetailsData;
    expect(data.evidence.blocks.length).toBeGreaterThan(0);
    const evidence = JSON.stringify(unpackEvidence(data.evidence));
    expect(evidence).toContain('<script>alert(1)</script>');
    for (const secret of Object.values(SECRETS)) expect(evidence).not.toContain(secret);
    expect(evidence).not.toMatch(CONTROL);
  });
});

describe('HTML under hostile input, large page (rows drawn from data)', () => {
  const html = renderHtml(result, { drawRowsAbove: 0 });

  it('has no raw payload, control character or secret, and exactly three script elements', () => {
    expect(html).not.toContain('<script>alert(1)');
    expect(html).not.toMatch(CONTROL);
    for (const secret of Object.values(SECRETS)) expect(expandHtmlEvidence(html)).not.toContain(secret);
    expect(html.match(/<script\b/gi)).toHaveLength(3);
    expect(html).not.toMatch(/<td class="s-/);
  });

  it('escapes < in both JSON blocks, and both still parse (the row headings stay escaped markup)', () => {
    for (const id of ['cell-data', 'row-data']) {
      const block = new RegExp(`<script type="application/json" id="${id}">([\\s\\S]*?)</script>`).exec(html)?.[1] ?? '';
      expect(block.length).toBeGreaterThan(0);
      expect(block).not.toContain('<');
      expect(() => JSON.parse(block) as unknown).not.toThrow();
    }
    const data = JSON.parse(/<script type="application\/json" id="cell-data">([\s\S]*?)<\/script>/.exec(html)![1]!) as DetailsData;
    // The planted command comes back whole from its marked part, as text.
    const repro = String(expandCellRow(data, 5)!['repro']);
    expect(repro).toMatch(/^npx mcp-error-matrix run --case x <script>alert\(1\)<\/script> \]\]> /);
    expect(repro).not.toMatch(CONTROL);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });
});
