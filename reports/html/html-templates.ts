// The HTML report's templates (reports/html/templates/): handlebars' precompiled form when the build
// wrote one that matches the template sources (`npm run build`: reports/html/build-html-templates.ts),
// otherwise compiled here at run time, as under vitest, which runs the sources. Both give the
// same bytes (reports/html/html-templates.test.ts). Compiling matrix.hbs was the largest cost of
// writing a small run's reports, and loading handlebars' compiler the next.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import HandlebarsRuntime from 'handlebars/runtime.js';

// handlebars' runtime.d.ts declares nothing: the runtime is the full API without the compiler.
type Runtime = Omit<typeof import('handlebars'), 'compile' | 'precompile' | 'parse' | 'parseWithoutProcessing'>;
/** Handlebars' runtime (templates, helpers, SafeString, escapeExpression), without its compiler. */
export const Handlebars = HandlebarsRuntime as unknown as Runtime;

/** The file the build writes beside the compiled html-templates.js (dist/reports/). */
export const PRECOMPILED_TEMPLATES_FILE = 'html-templates.precompiled.js';

/** Options every template is compiled with, at build time and at run time alike. */
const COMPILE_OPTIONS = { strict: false, preventIndent: true } as const;
const TEMPLATE_FILES = ['matrix.hbs', 'trend.hbs'] as const;
type TemplateFile = (typeof TEMPLATE_FILES)[number];

// Stand where the JSON blocks go. Escaped text never contains `<`, so only the helper emits them.
export const DETAILS_MARK = '<!--mcp-error-matrix:cell-data-->';
export const ROWS_MARK = '<!--mcp-error-matrix:row-data-->';

/** What a precompiled module exports: each template's spec and what it was compiled from. */
export interface PrecompiledTemplates {
  /** The handlebars version that compiled them and the SHA-256 of each template source. */
  compiledFrom: Record<string, string>;
  matrix: object;
  trend: object;
}

export interface HtmlTemplates {
  template: (context: object) => string;
  css: string;
  trendCss: string;
  js: string;
  scriptHash: string;
  /** How the templates were made: from the build's precompiled module, or compiled now. */
  madeBy: 'precompiled' | 'compiled at run time';
}

let precompiled: (PrecompiledTemplates & { url: string }) | undefined;
let loaded: HtmlTemplates | undefined;

// From source the templates sit beside this file; from dist/reports/ they are in the
// package's reports/html/templates/ (package.json "files" ships that folder, not a copy in dist).
export function readTemplateFile(name: string): string {
  const candidates = [new URL(`./templates/${name}`, import.meta.url), new URL(`../../../reports/html/templates/${name}`, import.meta.url)];
  const found = candidates.find((url) => existsSync(fileURLToPath(url)));
  if (!found) throw new Error(`HTML report template ${name} not found (looked in ${candidates.map((u) => fileURLToPath(u)).join(', ')})`);
  return readFileSync(found, 'utf8');
}

function describeSources(sources: Record<TemplateFile, string>): Record<string, string> {
  const digests: Record<string, string> = { handlebars: Handlebars.VERSION };
  for (const name of TEMPLATE_FILES) digests[name] = createHash('sha256').update(sources[name]).digest('hex');
  return digests;
}

function isSameOrigin(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}

/**
 * Loads the build's precompiled templates (default: beside this module; absent when running
 * from source). Returns whether usable specs were found; a module of another shape is ignored
 * like a missing one. They render only while what they were compiled from matches the template
 * sources and handlebars read on first use; otherwise the templates are compiled then.
 */
export async function loadPrecompiledTemplates(url: URL = new URL(`../${PRECOMPILED_TEMPLATES_FILE}`, import.meta.url)): Promise<boolean> {
  if (precompiled?.url === url.href) return true;
  const path = fileURLToPath(url);
  if (!existsSync(path)) return false;
  let module: Partial<Record<keyof PrecompiledTemplates, unknown>>;
  try {
    module = (await import(url.href)) as typeof module;
  } catch (error) {
    throw new Error(`the precompiled HTML templates ${path} cannot be loaded (${(error as Error).message}); run \`npm run build\` again`, { cause: error });
  }
  const { compiledFrom, matrix, trend } = module;
  if (!isStringRecord(compiledFrom) || !isObject(matrix) || !isObject(trend)) return false;
  precompiled = { url: url.href, compiledFrom, matrix, trend };
  loaded = undefined;
  return true;
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return isObject(value) && Object.values(value).every((entry) => typeof entry === 'string');
}

/** The source of the precompiled template module, for the build step. */
export function generatePrecompiledModule(): string {
  const compiler = loadCompiler();
  const sources = readSources();
  return [
    '// Generated by `npm run build` (reports/html/build-html-templates.ts) from reports/html/templates/*.hbs; do not edit.',
    '// reports/html/html-templates.ts uses these only while compiledFrom matches the sources and handlebars.',
    `export const compiledFrom = ${JSON.stringify(describeSources(sources))};`,
    `export const matrix = ${compiler.precompile(sources['matrix.hbs'], COMPILE_OPTIONS)};`,
    `export const trend = ${compiler.precompile(sources['trend.hbs'], COMPILE_OPTIONS)};`,
    '',
  ].join('\n');
}

/** The templates and inline assets, made once per process (a run may render several reports, and tests render many). */
export function getHtmlTemplates(): HtmlTemplates {
  if (loaded) return loaded;
  const sources = readSources();
  const usable = precompiled && isSameOrigin(precompiled.compiledFrom, describeSources(sources)) ? precompiled : undefined;
  const hbs = usable ? Handlebars.create() : loadCompiler().create();
  // The JSON blocks are streamed in after rendering (see html.ts renderChunks); the template marks their place.
  hbs.registerHelper('jsonScript', (name: unknown) => new hbs.SafeString(name === 'row-data' ? ROWS_MARK : DETAILS_MARK));
  // A family of versions: templates/trend.hbs.
  hbs.registerPartial('trend', usable ? hbs.template(usable.trend as never) : sources['trend.hbs']);
  const template = usable ? hbs.template(usable.matrix as never) : hbs.compile(sources['matrix.hbs'], COMPILE_OPTIONS);
  // One inline script (one hash in the CSP): the large page's row drawing, then the page's behaviour.
  const js = `${readTemplateFile('matrix.rows.js')}${readTemplateFile('matrix.client.js')}`;
  loaded = {
    template,
    css: readTemplateFile('matrix.css'),
    trendCss: readTemplateFile('trend.css'),
    js,
    scriptHash: `sha256-${createHash('sha256').update(js).digest('base64')}`,
    madeBy: usable ? 'precompiled' : 'compiled at run time',
  };
  return loaded;
}

function readSources(): Record<TemplateFile, string> {
  return { 'matrix.hbs': readTemplateFile('matrix.hbs'), 'trend.hbs': readTemplateFile('trend.hbs') };
}

// Handlebars' compiler (parser, code generator) is loaded only when a template is compiled here.
function loadCompiler(): typeof import('handlebars') {
  return createRequire(import.meta.url)('handlebars') as typeof import('handlebars');
}
