// The atlas site in a real headless Chromium (Debian's /usr/bin/chromium driven by playwright-core,
// as html-browser.test.ts): the index, a stack page and a cell's evidence in a version's matrix, at
// desktop and phone widths, opened from file://, following the site's own links. No page may
// request anything but the site's files, raise an error, or scroll sideways. Without the browser or
// the driver: skipped locally, failed under CI=true. MEM_SCREENSHOT_DIR keeps the screenshots.
import { copyFile, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { writeAtlasSite } from '../reports/atlas/write-atlas-site.js';
import { writeVersionFiles } from '../runner/atlas/measure-atlas-version.js';
import { getPackageRoot } from '../runner/util/package-paths.js';
import type { Cell } from '../runner/vocabulary/types.js';
import { describeRequiring } from './describe-requiring.js';
import { makeAtlasCell, makeSampleAtlas } from './make-atlas-index.js';
import { makeCase, makeCell, makeCheck, makeRunResult } from './make-run-result.js';
import { CHROMIUM_PATH, getBrowserRequirement } from './requirements.js';

const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const SCREENSHOT_DIR = process.env['MEM_SCREENSHOT_DIR'];
const WIDTHS = [
  ['desktop', 1280, 800],
  ['phone', 390, 844],
] as const;

// @ts-ignore -- resolves to the real types once playwright-core is installed
type Playwright = typeof import('playwright-core');
type Browser = Awaited<ReturnType<Playwright['chromium']['launch']>>;
type Page = Awaited<ReturnType<Browser['newPage']>>;

const requirement = getBrowserRequirement();
const driver = 'playwright-core';
const playwright = requirement.available ? ((await import(driver)) as Playwright) : undefined;

/** A version's one-target result whose cells match the sample atlas's (the matrix page is the run report's). */
function makeVersionResult(spec: string, cells: ReturnType<typeof makeAtlasCell>[]) {
  const failed = (outcome: string) => makeCheck({ id: 'outcome@1', passed: false, consequence: 'false-success', expected: { outcome: 'MALFORMED_JSON' }, actual: { outcome, layer: 'application' }, message: `outcome@1: expected MALFORMED_JSON, got ${outcome}` });
  const full: Cell[] = cells.map((cell) =>
    makeCell({ case: cell.case, target: spec, protocolVersion: cell.protocolVersion, status: cell.status, ...(cell.status === 'fail' ? { checks: [failed(cell.actual?.[0]?.outcome ?? 'TOOL_SUCCESS')] } : {}) }),
  );
  return makeRunResult({
    cases: [makeCase({ id: 'tool-is-error', title: 'Tool execution error (isError true)' }), makeCase({ id: 'malformed-json', title: 'Malformed JSON body on HTTP 200', layer: 'protocol' })],
    targets: [{ name: spec, kind: 'client', version: spec.split('@')[1]! }],
    cells: full,
  });
}

describeRequiring(requirement, 'the atlas site in headless Chromium', () => {
  let dir: string;
  let site: string;
  let browser: Browser;
  let page: Page;
  let seen: { requests: string[]; errors: string[] };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mem-atlas-browser-'));
    site = join(dir, 'site');
    const index = makeSampleAtlas();
    const versionDirs = new Map<string, string>();
    for (const stack of index.stacks) {
      for (const version of stack.versions) {
        if (version.path === undefined) continue;
        const folder = join(dir, 'work', version.path);
        await writeVersionFiles(folder, makeVersionResult(version.spec, version.cells));
        versionDirs.set(version.spec, folder);
      }
    }
    await writeAtlasSite(site, index, { versionDirs, inputs: [{ kind: 'runner', path: join(getPackageRoot(), 'package.json'), root: 'package' }], rootDir: getPackageRoot(), cwd: dir, home: '/nonexistent-home', shownAs: 'site' });
    browser = await playwright!.chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
    const context = await browser.newContext();
    const siteUrl = pathToFileURL(site).href;
    // The site's own files load; anything else is aborted and recorded.
    await context.route('**/*', (route: { request(): { url(): string }; continue(): Promise<void>; abort(): Promise<void> }) => (route.request().url().startsWith(`${siteUrl}/`) ? route.continue() : route.abort()));
    page = await context.newPage();
    page.on('request', (request: { url(): string }) => {
      if (!request.url().startsWith(`${siteUrl}/`)) seen.requests.push(request.url());
    });
    page.on('pageerror', (error: Error) => seen.errors.push(error.message));
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function open(path: string, width: number, height: number) {
    seen = { requests: [], errors: [] };
    await page.setViewportSize({ width, height });
    await page.goto(pathToFileURL(join(site, path)).href, { waitUntil: 'load' });
  }

  async function screenshot(name: string) {
    const shot = join(dir, `${name}.png`);
    await page.screenshot({ path: shot });
    if (SCREENSHOT_DIR) await copyFile(shot, join(SCREENSHOT_DIR, `${name}.png`));
    expect((await stat(shot)).size).toBeGreaterThan(1000);
  }

  /** The elements that stick out past the viewport's right edge (none: the page never scrolls sideways), outermost first. */
  const overflowing = () =>
    page.evaluate(`(() => {
      const edge = document.documentElement.clientWidth;
      const out = [];
      for (const el of document.body.querySelectorAll('*')) {
        if (el.closest('.scroll, .trend-counts, .trend-rows, pre')?.contains(el) && !el.matches('.scroll, .trend-counts, .trend-rows, pre')) continue;
        const right = Math.ceil(el.getBoundingClientRect().right);
        if (right > edge) out.push(el.tagName.toLowerCase() + (el.className && typeof el.className === 'string' ? '.' + el.className.split(' ').join('.') : '') + ' to ' + right + ' px');
      }
      return out.slice(0, 5);
    })()`) as Promise<string[]>;

  it.each(WIDTHS)('shows the index with every stack\'s versions coloured by their worst kind, fitting the width, and links down to a version\'s matrix (%s, screenshot)', async (name, width, height) => {
    await open('index.html', width, height);
    await screenshot(`atlas-index-${name}`);
    expect(await page.locator('h1').textContent()).toContain('How MCP clients handle failed tool calls');
    expect(await page.locator('.stack').count()).toBe(2);
    expect(await page.locator('.vcell.k-false-success').count()).toBe(1);
    expect(await page.locator('.vcell.k-unsafe-retry').count()).toBe(1);
    expect(await overflowing()).toEqual([]);
    // The regressed version's cell leads to its matrix, drawn by the run report.
    await page.locator('a.vcell.k-false-success').click();
    await page.waitForURL(/stacks\/ts-sdk\/1\.1\.0\/matrix\.html$/);
    expect(await page.locator('#matrix').count()).toBe(1);
    expect(seen).toEqual({ requests: [], errors: [] });
  });

  it.each(WIDTHS)('shows a stack page with its changes, its trend chart and its versions, fitting the width (%s, screenshot)', async (name, width, height) => {
    await open('stacks/ts-sdk/index.html', width, height);
    await screenshot(`atlas-stack-${name}`);
    expect(await page.locator('table.changes tbody tr').count()).toBe(2);
    expect(await page.locator('table.changes .change-regression').textContent()).toContain('regression');
    expect(await page.locator('svg.trend-chart').isVisible()).toBe(true);
    expect(await overflowing()).toEqual([]);
    // A change's case links to the case's page across stacks.
    await page.locator('table.changes a[href$="malformed-json.html"]').first().click();
    await page.waitForURL(/cases\/malformed-json\.html$/);
    expect(await page.locator('table.answers').count()).toBe(2);
    expect(seen).toEqual({ requests: [], errors: [] });
  });

  it.each(WIDTHS)('opens a cell\'s evidence in a version\'s matrix: expected against actual, the consequence, the wire transcript (%s, screenshot)', async (name, width, height) => {
    await open('stacks/ts-sdk/1.1.0/matrix.html', width, height);
    await page.locator('#matrix td[data-s="fail"]').first().click();
    await page.locator('#details-body[data-ready]').waitFor();
    await screenshot(`atlas-evidence-${name}`);
    const text = await page.locator('#details-body').textContent();
    expect(text).toContain('Malformed JSON body on HTTP 200');
    expect(text).toContain('outcome@1: expected MALFORMED_JSON, got TOOL_SUCCESS');
    expect(text).toContain('Wire transcript');
    expect(seen).toEqual({ requests: [], errors: [] });
  });
});
