// @ts-check
// How long a large matrix.html takes to open in headless Chromium (Debian's /usr/bin/chromium
// driven by playwright-core, as test/html-browser.test.ts does): the time from navigation to the
// `load` event, which follows the inline script (rows indexed; a large page draws the rows near
// the viewport), and to the first contentful paint, both from the page's own navigation and paint
// timing; then, in the notes, what a reader does next: scroll to the matrix, open a cell.
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { median, ratio } from './measure.mjs';
import { readDescendantCpuMs } from './descendant-cpu.mjs';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
/** The page must be usable this soon (issue 16 goal 3). */
const BUDGET_MS = 3000;

/**
 * Load figures for the HTML file at `file` (opened `repeat` times in one browser), or none without
 * a browser. `figure` names the figure: its id and title (default: the 100,000-cell reports' page).
 */
export async function measureHtmlLoad(file, cells, repeat, figure = { id: 'reports.html_load', title: `reports, ${cells} cells: matrix.html load in headless Chromium (ms)` }) {
  let playwright;
  try {
    playwright = await import('playwright-core');
  } catch {
    playwright = undefined;
  }
  if (!playwright || !existsSync(CHROMIUM)) {
    process.stderr.write(`bench: html load skipped: ${existsSync(CHROMIUM) ? 'playwright-core is not installed' : `${CHROMIUM} is absent`}\n`);
    return [];
  }
  const browser = await playwright.chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
  const loads = [];
  const paints = [];
  const cpus = [];
  const scrolls = [];
  const opens = [];
  try {
    const url = pathToFileURL(file).href;
    for (let i = 0; i < repeat; i++) {
      const page = await browser.newPage();
      const errors = [];
      page.on('pageerror', (error) => errors.push(error.message));
      const cpuBefore = readDescendantCpuMs();
      await page.goto(url, { waitUntil: 'load', timeout: 120_000 });
      const timing = await page.evaluate(() => {
        const nav = /** @type {any} */ (performance.getEntriesByType('navigation')[0]);
        const paint = performance.getEntriesByType('paint').find((entry) => entry.name === 'first-contentful-paint');
        return { load: nav.loadEventStart, paint: paint ? paint.startTime : NaN };
      });
      cpus.push(readDescendantCpuMs() - cpuBefore);
      // After the load: scrolling the matrix into view until a row of cells is drawn (a large page
      // draws rows as they come into view), then opening the first cell's details (which parses
      // the details JSON on first use), each timed inside the page.
      scrolls.push(await page.evaluate(`new Promise((resolve) => {
        const started = performance.now();
        document.getElementById('matrix').scrollIntoView();
        const check = () => (document.querySelector('#matrix td[data-i]') ? resolve(performance.now() - started) : requestAnimationFrame(check));
        requestAnimationFrame(check);
      })`));
      // The details are whole once their evidence blocks are unpacked (the panel marks itself ready).
      opens.push(await page.evaluate(`new Promise((resolve, reject) => {
        const started = performance.now();
        document.querySelector('#matrix td[data-i]:not([data-i="-1"])').click();
        if (document.getElementById('details').hidden) reject(new Error('the details panel did not open'));
        // Bounded: a page that never gets ready fails the figure instead of hanging the bench.
        let frames = 0;
        const check = () => {
          if (document.querySelector('#details-body[data-ready]')) resolve(performance.now() - started);
          else if (++frames > 3600) reject(new Error('the details panel never got its evidence'));
          else requestAnimationFrame(check);
        };
        check();
      })`));
      await page.close();
      if (errors.length) throw new Error(`${file}: page errors: ${errors.join('; ')}`);
      loads.push(timing.load);
      paints.push(timing.paint);
    }
  } finally {
    await browser.close();
  }
  const load = median(loads);
  return [
    { id: figure.id, title: figure.title, measured: load, reference: BUDGET_MS, referenceLabel: 'budget: 3 s', ratio: ratio(load, BUDGET_MS), target: 1, targetKind: 'max', unit: 'ms', notes: `navigation start → load event (after the inline script), median of ${loads.length}; first contentful paint ${Math.round(median(paints))} ms; CPU time of the browser's processes during the load ${Math.round(median(cpus))} ms (steadier under load); then scrolling the matrix into view until cells are drawn ${Math.round(median(scrolls))} ms, opening the first cell's details (its evidence unpacked) ${Math.round(median(opens))} ms`, samples: { load: loads, paint: paints, cpu: cpus, scroll: scrolls, open: opens } },
  ];
}
