// The public surface of reports/formats/: what code outside the folder uses. scripts/relayout.mjs made
// this list from the imports; a new caller adds the name it needs.
export { FULL_RESULTS_FILE, renderFull, renderFullChunks, renderFullGzipChunks } from './json-full.js';
export { render, render as renderIndex, render as renderJson, renderChunks as renderJsonChunks } from './json.js';
export { render as renderJUnit, render as renderJunit, renderChunks as renderJunitChunks } from './junit.js';
export { render as renderMarkdown } from './markdown.js';
export { render as renderSummaryJson } from './summary-json.js';
export { render as renderTap, renderChunks as renderTapChunks } from './tap.js';
