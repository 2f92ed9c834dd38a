// The public surface of reports/trend/: what code outside the folder uses. scripts/relayout.mjs made
// this list from the imports; a new caller adds the name it needs.
export { buildTrendViews } from './trend-html.js';
export { renderTrendMarkdown } from './trend-markdown.js';
export { buildTrendFamilies, formatVerdict } from './trend-view-model.js';
export type { TrendChange, TrendFamily, TrendSourceCell } from './trend-view-model.js';
