// The public surface of reports/redaction/: what code outside the folder uses. scripts/relayout.mjs made
// this list from the imports; a new caller adds the name it needs.
export { redactCell, redactCheck, redactRunResult, redactVerdict } from './redact-result.js';
export { sanitizeHeaders, sanitizeText, sanitizeValue, toOneLine } from './redact.js';
