// @ts-check
// How long a large matrix.html takes to open in headless Chromium (Debian's /usr/bin/chromium
// driven by playwright-core, as test/html-browser.test.ts does): the time from navigation to the
// `load` event, which follows the inline script (details JSON parsed, rows indexed), and to the
// first contentful paint, both from the page's own navigation and paint timing.
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { median, ratio } from './measure.mjs';
import { readDescendantCpuMs } from './descendant-cpu.mjs';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
/** The page must be usable this soon (issue 16 goal 3). */
const BUDGET_MS = 3000;

/** Load figures for the HTML file at `file` (opened `repeat` times in one browser), or null without a browser. */
export async function measureHtmlLoad(file, cells, repeat) {
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
    { id: 'reports.html_load', title: `reports, ${cells} cells: matrix.html load in headless Chromium (ms)`, measured: load, reference: BUDGET_MS, referenceLabel: 'budget: 3 s', ratio: ratio(load, BUDGET_MS), target: 1, targetKind: 'max', unit: 'ms', notes: `navigation start → load event (after the inline script), median of ${loads.length}; first contentful paint ${Math.round(median(paints))} ms; CPU time of the browser's processes during the load ${Math.round(median(cpus))} ms (steadier under load)`, samples: { load: loads, paint: paints, cpu: cpus } },
  ];
}
