// Runs the HTML matrix's inline script against a minimal fake DOM built from the rendered
// markup: filters hide rows, every cell's details panel builds without error, and wire data
// only ever reaches the page as text. (The real-browser test drives Chromium separately.)
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { HOSTILE, makeHostileRunResult, makeRunResult } from '../../test/make-run-result.js';
import { render } from './html.js';
import { declareLoadedByPath } from '../../test/loaded-by-path.js';

// The page's scripts, read by path and inlined by html-templates.ts.
declareLoadedByPath(() => import('./templates/matrix.client.js' as string), () => import('./templates/matrix.rows.js' as string));

class FakeElement {
  children: FakeElement[] = [];
  attrs = new Map<string, string>();
  classes = new Set<string>();
  listeners = new Map<string, ((event: unknown) => void)[]>();
  hidden = false;
  value = '';
  type = '';
  parent: FakeElement | undefined;
  private text = '';
  /** Who waits for an attribute to be set (untilReady). */
  private attributeWaiters = new Map<string, (() => void)[]>();
  constructor(readonly tagName: string) {}
  get className() {
    return [...this.classes].join(' ');
  }
  set className(value: string) {
    this.classes = new Set(value.split(' ').filter(Boolean));
  }
  classList = {
    toggle: (name: string, on: boolean) => (on ? this.classes.add(name) : this.classes.delete(name)),
    add: (name: string) => this.classes.add(name),
    remove: (name: string) => this.classes.delete(name),
    contains: (name: string) => this.classes.has(name),
  };
  get textContent(): string {
    return this.text + this.children.map((c) => c.textContent).join('');
  }
  set textContent(value: string) {
    this.text = value;
    this.children = [];
  }
  set innerHTML(_value: string) {
    throw new Error('innerHTML must not be used');
  }
  getAttribute(name: string) {
    return this.attrs.get(name) ?? null;
  }
  setAttribute(name: string, value: string) {
    this.attrs.set(name, value);
    const waiters = this.attributeWaiters.get(name) ?? [];
    this.attributeWaiters.delete(name);
    for (const wake of waiters) wake();
  }
  /** Resolves once the attribute is set (at once when it is). */
  whenAttribute(name: string): Promise<void> {
    if (this.attrs.has(name)) return Promise.resolve();
    return new Promise((resolve) => this.attributeWaiters.set(name, [...(this.attributeWaiters.get(name) ?? []), resolve]));
  }
  removeAttribute(name: string) {
    this.attrs.delete(name);
  }
  appendChild(child: FakeElement) {
    child.parent = this;
    this.children.push(child);
    return child;
  }
  addEventListener(type: string, listener: (event: unknown) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  dispatch(type: string, event: object = {}) {
    for (const listener of this.listeners.get(type) ?? []) listener({ preventDefault() {}, ...event });
  }
  descendants(): FakeElement[] {
    return this.children.flatMap((c) => [c, ...c.descendants()]);
  }
  querySelectorAll(selector: string): FakeElement[] {
    const all = this.descendants();
    if (selector === 'tbody tr[data-q]') return all.filter((e) => e.tagName === 'tr');
    if (selector === 'tbody') return all.filter((e) => e.tagName === 'tbody');
    if (selector === 'td' || selector === 'th[class*="t"], td') return all.filter((e) => e.tagName === 'td');
    if (selector === 'td.dim') return all.filter((e) => e.tagName === 'td' && e.classes.has('dim'));
    throw new Error(`unsupported selector ${selector}`);
  }
  querySelector(selector: string) {
    if (selector === 'tr[data-q]:not(.hide)') return this.children.find((c) => c.tagName === 'tr' && !c.classes.has('hide')) ?? null;
    // The fake table has no header rows: the sticky offsets keep their CSS fallbacks.
    if (selector === 'thead tr.head-targets') return null;
    throw new Error(`unsupported selector ${selector}`);
  }
  closest(selector: string): FakeElement | null {
    if (selector !== 'td[data-i]') throw new Error(`unsupported selector ${selector}`);
    return this.tagName === 'td' ? this : (this.parent?.closest(selector) ?? null);
  }
  focus() {}
  getBoundingClientRect() {
    return { height: 0 };
  }
}

function decode(text: string) {
  return text.replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/&#x3D;/g, '=').replace(/&#x60;/g, '`').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

function load(html: string) {
  const byId = new Map<string, FakeElement>();
  const make = (tag: string, id?: string) => {
    const e = new FakeElement(tag);
    if (id) byId.set(id, e);
    return e;
  };
  const table = make('table', 'matrix');
  for (const group of html.matchAll(/<tbody data-layer="[^"]*">([\s\S]*?)<\/tbody>/g)) {
    const tbody = table.appendChild(make('tbody'));
    for (const row of group[1]!.matchAll(/<tr data-layer="([^"]*)" data-q="([^"]*)">([\s\S]*?)<\/tr>/g)) {
      const tr = tbody.appendChild(make('tr'));
      tr.setAttribute('data-layer', decode(row[1]!));
      tr.setAttribute('data-q', decode(row[2]!));
      for (const td of row[3]!.matchAll(/<td class="([^"]*)"[^>]*? data-i="(-?\d+)" data-s="([^"]*)"/g)) {
        const cell = tr.appendChild(make('td'));
        cell.className = td[1]!;
        cell.setAttribute('data-i', td[2]!);
        cell.setAttribute('data-s', td[3]!);
      }
    }
  }
  const data = make('script', 'cell-data');
  data.textContent = /<script type="application\/json" id="cell-data">([\s\S]*?)<\/script>/.exec(html)![1]!;
  for (const id of ['details', 'details-body', 'f-layer', 'f-status', 'f-target', 'f-text', 'f-count', 'details-close', 'filters']) make('div', id);
  const document = {
    getElementById: (id: string) => byId.get(id) ?? null,
    createElement: (tag: string) => new FakeElement(tag),
    createTextNode: (text: string) => Object.assign(new FakeElement('#text'), { textContent: text }),
    addEventListener() {},
    documentElement: { style: { setProperty() {} } },
  };
  const script = /<script>([\s\S]*?)<\/script>/.exec(html)![1]!;
  // The evidence blocks are unpacked with the platform's own atob, Blob and DecompressionStream (Node has them too).
  const platform = { atob, Uint8Array, Blob, Response, DecompressionStream, Promise, Object };
  runInNewContext(script, { document, window: { addEventListener() {}, DecompressionStream }, navigator: {}, JSON, Number, String, Array, ...platform });
  return { byId, table, rows: table.querySelectorAll('tbody tr[data-q]') };
}

/**
 * Waits until the details panel has its evidence: the page unpacks it with DecompressionStream, whose
 * work runs on libuv's thread pool, so no count of event-loop turns bounds it on a loaded machine (1,000
 * turns ran out at load 37). The page sets data-ready when it is done; a page that never does fails the
 * test by its timeout.
 */
async function untilReady(body: FakeElement): Promise<void> {
  await body.whenAttribute('data-ready');
  expect(body.getAttribute('data-ready')).toBe('');
}

describe('matrix client script', () => {
  it('filters rows by layer, status, target and text', () => {
    const { byId, rows } = load(render(makeRunResult()));
    const visible = () => rows.filter((r) => !r.classes.has('hide')).map((r) => r.getAttribute('data-q'));
    expect(visible()).toHaveLength(3);
    expect(byId.get('f-count')!.textContent).toBe('3 of 3 cases');

    byId.get('f-layer')!.value = 'transport';
    byId.get('f-layer')!.dispatch('change');
    expect(visible()).toEqual(['http-503-then-200 http 503 then 200']);

    byId.get('f-layer')!.value = '';
    byId.get('f-status')!.value = 'xfail';
    byId.get('f-status')!.dispatch('change');
    expect(visible()).toEqual(['content-not-array result whose content is not an array']);

    byId.get('f-status')!.value = '';
    byId.get('f-text')!.value = 'BASELINE';
    byId.get('f-text')!.dispatch('input');
    expect(visible()).toEqual(['baseline successful tool call (baseline)']);

    byId.get('f-text')!.value = '';
    byId.get('f-target')!.value = '1';
    byId.get('f-target')!.dispatch('change');
    const hiddenCells = rows[0]!.children.filter((td) => td.classes.has('hide'));
    expect(hiddenCells.every((td) => td.classes.has('t0'))).toBe(true);
    expect(hiddenCells.length).toBeGreaterThan(0);
  });

  it('builds the details panel for every cell, with hostile content as text only', async () => {
    const { byId, table } = load(render(makeHostileRunResult()));
    const cells = table.querySelectorAll('td').filter((td) => td.getAttribute('data-i') !== '-1');
    expect(cells.length).toBeGreaterThan(0);
    for (const td of cells) {
      table.dispatch('click', { target: td });
      expect(byId.get('details')!.hidden).toBe(false);
      await untilReady(byId.get('details-body')!);
      expect(byId.get('details-body')!.textContent).toContain('Reproduce');
      expect(byId.get('details-body')!.textContent).toContain('Wire transcript');
    }
    // Cell 0 is the failing one whose transcript carries the Authorization header and the cookie.
    table.dispatch('click', { target: cells.find((td) => td.getAttribute('data-i') === '0') });
    await untilReady(byId.get('details-body')!);
    const text = byId.get('details-body')!.textContent;
    expect(text).toContain('<script>alert(1)</script>');
    expect(text).toContain('[REDACTED]');
    expect(text).not.toContain(HOSTILE);
  }, 120_000);

  it('says where the evidence is when the browser cannot unpack it, and still gives the repro line', async () => {
    const html = render(makeRunResult());
    const { byId, table } = load(html.replace('window.DecompressionStream', 'window.NoSuchStream'));
    table.dispatch('click', { target: table.querySelectorAll('td').find((td) => td.getAttribute('data-i') === '0') });
    await untilReady(byId.get('details-body')!);
    const text = byId.get('details-body')!.textContent;
    expect(text).toContain('could not be unpacked here (this browser has no DecompressionStream). They are in results.full.json.gz beside this page');
    expect(text).toContain('Reproduce');
  }, 120_000);
});
