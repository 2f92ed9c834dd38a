// The public surface of reports/report-folder/: what code outside the folder uses. scripts/relayout.mjs made
// this list from the imports; a new caller adds the name it needs.
export { checkReportFolder } from './check-report-folder.js';
export { holdReportFolder } from './hold-report-folder.js';
export type { HeldReportFolder } from './hold-report-folder.js';
export { REPORT_MARKER_FILE, createReportMarker } from './report-marker.js';
export { writeContent, writeFileAtomic, writeReportFolder } from './write.js';
export type { Finalize, ReportFile, WriteReportFolderOptions } from './write.js';
