// The public surface of reports/html/: what code outside the folder uses. scripts/relayout.mjs made
// this list from the imports; a new caller adds the name it needs.
export { expandCellRow, unpackEvidence } from './html-details.js';
export type { DetailsData } from './html-details.js';
export { loadPrecompiledTemplates, readTemplateFile } from './html-templates.js';
export { render, render as renderHtml, renderChunks as renderHtmlChunks } from './html.js';
export { STATUS_STYLE } from './status-style.js';
