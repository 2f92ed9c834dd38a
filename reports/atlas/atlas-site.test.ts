// The atlas's pages from a synthetic index: the index colours each version by its worst kind and
// links down; a stack page lists each change with its first version; a case page answers the case
// for every stack and version; every link is relative, no page loads anything, wire text is escaped.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeAtlasStack, makeAtlasVersion, makeSampleAtlas, makeAtlasIndex } from '../../test/make-atlas-index.js';
import { listAtlasFiles } from './list-atlas-files.js';
import { listStackChanges } from '../../runner/atlas/list-stack-changes.js';
import { buildAtlasIndexView } from './atlas-index-view.js';
import { renderBadgesMarkdown } from './atlas-badges.js';

const render = (index = makeSampleAtlas()) => {
  const dirs = new Map<string, string>();
  // No version folder to copy in these tests: only the generated pages are read.
  const files = listAtlasFiles({ ...index, stacks: index.stacks.map((s) => ({ ...s, versions: s.versions.map((v) => ({ ...v, path: undefined })) })) }, { versionDirs: dirs });
  return new Map(files.map((file) => [file.name, typeof file.content === 'string' ? file.content : Buffer.isBuffer(file.content) ? file.content.toString() : [...file.content].join('')]));
};

describe('atlas pages', () => {
  it('colours each version of the index by its worst kind, with its counts, newest first, linking to its matrix', () => {
    const view = buildAtlasIndexView(makeSampleAtlas());
    expect(view.totals).toEqual({ stacks: 2, versions: 6, cells: 20, cases: 2 });
    expect(view.stacks[0]!.versions.map((v) => [v.version, v.look, v.lines.join('; '), v.href])).toEqual([
      ['1.2.0', 'k-clean', '4 of 4 pass', 'stacks/ts-sdk/1.2.0/matrix.html'],
      ['1.1.0', 'k-false-success', '1 false success', 'stacks/ts-sdk/1.1.0/matrix.html'],
      ['1.0.0', 'k-clean', '2 of 2 pass', 'stacks/ts-sdk/1.0.0/matrix.html'],
      ['0.9.0', 'k-speaks-none', 'speaks none of the protocol versions', 'stacks/ts-sdk/0.9.0/matrix.html'],
    ]);
    expect(view.stacks[1]!.versions.map((v) => [v.look, v.lines])).toEqual([
      ['k-unsafe-retry', ['1 unsafe retry', '1 imprecise', '1 adapter gap']],
      ['k-not-started', ['not measured']],
    ]);
    expect(view.stacks[0]!.coverage).toBe("the latest patch of every minor, newest first, back to the first that speaks none of the table's protocol versions; the walk back stopped at 0.9.0: it speaks none of them; 1 older (0.8.0 to 0.8.0) not measured");
    expect(view.stacks[1]!.versions[1]!.title).toBe('ai-sdk@1.0.102 could not be started: @ai-sdk/mcp 1.0.102 exports no createMCPClient');
  });

  it('lists every change of a stack at the version it happened, against the version before that measured the row', () => {
    expect(listStackChanges(makeSampleAtlas().stacks[0]!)).toEqual([
      { caseId: 'malformed-json', protocolVersion: '2025-11-25', version: '1.1.0', previous: '1.0.0', change: 'regression', from: 'MALFORMED_JSON', to: 'TOOL_SUCCESS', consequence: 'false-success' },
      { caseId: 'malformed-json', protocolVersion: '2025-11-25', version: '1.2.0', previous: '1.1.0', change: 'fix', from: 'TOOL_SUCCESS', to: 'MALFORMED_JSON', consequence: 'false-success' },
    ]);
    const page = render().get('stacks/ts-sdk/index.html')!;
    expect(page).toContain('<td class="change-regression">regression <span class="muted">(false-success)</span></td><td><a href="../../cases/malformed-json.html"><code>malformed-json</code></a><br><span class="meaning">Malformed JSON body on HTTP 200: HTTP 200 with Content-Type application/json and the body &#x60;{unclosed&#x60;.</span>');
    // The run report's trend partial: its chart and its rows.
    expect(page).toContain('<svg class="trend-chart"');
    expect(page).toContain('Version trend: ts-sdk');
  });

  it('lists no change to or from a cell that was not measured (error): the library did nothing the atlas saw', () => {
    // 1.0.0 passes, 1.1.0 was starved (not measured), 1.2.0 passes again: no regression at 1.1.0, no fix at 1.2.0.
    const stack = makeAtlasStack('ts-sdk', [
      makeAtlasVersion('ts-sdk', '1.2.0', { 'tool-is-error': ['pass', 'pass'] }),
      makeAtlasVersion('ts-sdk', '1.1.0', { 'tool-is-error': ['error:starved', 'pass'] }),
      makeAtlasVersion('ts-sdk', '1.0.0', { 'tool-is-error': ['pass', 'fail:false-success:TOOL_SUCCESS'] }),
    ]);
    expect(listStackChanges(stack).map((c) => `${c.change} ${c.caseId} ${c.protocolVersion} at ${c.version} from ${c.previous}`)).toEqual(['fix tool-is-error 2026-07-28 at 1.1.0 from 1.0.0']);
    const page = render(makeAtlasIndex([stack])).get('stacks/ts-sdk/index.html')!;
    expect(page).not.toContain('<td class="change-regression">');
  });

  it('answers a case for every stack and version, one column per protocol version', () => {
    const page = render().get('cases/malformed-json.html')!;
    expect(page).toContain('<h1><code>malformed-json</code> <span class="muted">Malformed JSON body on HTTP 200</span></h1>');
    expect(page).toContain('<td class="answer s-fail">FAIL<small>TOOL_SUCCESS · false success</small></td>');
    expect(page).toContain('<td class="answer s-error">ERROR<small>error · adapter gap</small></td>');
    expect(page).toContain('<td class="answer s-none">—<small>not measured</small></td>');
    expect(render().get('cases/index.html')).toContain('<a href="malformed-json.html"><code>malformed-json</code></a>');
  });

  it('writes pages with a CSP that allows no script and no request, and only relative links', () => {
    const pages = [...render()].filter(([name]) => name.endsWith('.html'));
    expect(pages.map(([name]) => name).sort()).toEqual(['cases/index.html', 'cases/malformed-json.html', 'cases/tool-is-error.html', 'index.html', 'stacks/ai-sdk/index.html', 'stacks/ts-sdk/index.html']);
    for (const [name, html] of pages) {
      expect(html, name).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'">`);
      expect(html, name).not.toMatch(/<script|<link|<img|@import|url\(/i);
      for (const [, href] of html.matchAll(/href="([^"]*)"/g)) expect(href, `${name}: ${href}`).toMatch(/^(?![a-z]+:|\/)[^"]+$/);
    }
  });

  it('escapes what came from case files and the wire', () => {
    const hostile = makeAtlasIndex([makeAtlasStack('ts-sdk', [makeAtlasVersion('ts-sdk', '1.0.0', { 'tool-is-error': ['pass', 'pass'] }, { state: 'not-started', reason: '<script>alert(1)</script>' })])], {
      cases: [{ id: 'tool-is-error', title: '<img src=x onerror=alert(1)>', layer: 'application', meaning: '"><script>x</script>', sha256: '1'.repeat(64), versions: ['2025-11-25'] }],
    });
    for (const [name, html] of render(hostile)) {
      if (!name.endsWith('.html')) continue;
      expect(html, name).not.toMatch(/<script>|<img src=x/);
    }
    expect(render(hostile).get('index.html')).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('writes a shields.io endpoint badge per version and per stack, and the Markdown to paste', () => {
    const files = render();
    // The versions' own badges are written beside their measured files (here: empty folders).
    const index = makeSampleAtlas();
    const empty = mkdtempSync(join(tmpdir(), 'mem-atlas-badges-'));
    const versionDirs = new Map(index.stacks.flatMap((stack) => stack.versions.map((version) => [version.spec, empty] as const)));
    const withVersions = new Map(listAtlasFiles(index, { versionDirs }).map((file) => [file.name, String(file.content)]));
    rmSync(empty, { recursive: true });
    expect(JSON.parse(files.get('stacks/ts-sdk/badge.json')!)).toEqual({ schemaVersion: 1, label: 'MCP errors (ts-sdk@1.2.0)', message: 'all pass', color: 'brightgreen' });
    // A version's endpoint JSON is what shields.io reads: the regressed version's false success is unsafe.
    expect(JSON.parse(withVersions.get('stacks/ts-sdk/1.1.0/badge.json')!)).toEqual({ schemaVersion: 1, label: 'MCP errors', message: '1 unsafe', color: 'red' });
    // An unsafe retry is unsafe too, and a cell the adapter could not map is counted, not hidden.
    expect(JSON.parse(withVersions.get('stacks/ai-sdk/2.0.99/badge.json')!)).toEqual({ schemaVersion: 1, label: 'MCP errors', message: '1 unsafe · 1 not measured', color: 'red' });
    const markdown = renderBadgesMarkdown(makeSampleAtlas(), 'https://example.github.io/atlas/');
    expect(markdown).toContain('[![MCP errors: ts-sdk](https://img.shields.io/endpoint?url=https%3A%2F%2Fexample.github.io%2Fatlas%2Fstacks%2Fts-sdk%2Fbadge.json)](https://example.github.io/atlas/stacks/ts-sdk/index.html)');
    expect(markdown).toContain('| 1.1.0 | 1 unsafe | `[![MCP errors: ts-sdk@1.1.0](https://img.shields.io/endpoint?url=https%3A%2F%2Fexample.github.io%2Fatlas%2Fstacks%2Fts-sdk%2F1.1.0%2Fbadge.json)](https://example.github.io/atlas/stacks/ts-sdk/1.1.0/matrix.html)` |');
    expect(renderBadgesMarkdown(makeSampleAtlas(), undefined)).toContain('replace SITE_URL below with its address');
  });
});
