// The marker every report folder carries: how the tool recognises a folder it wrote (and may
// therefore replace), without guessing from file names.
import { join } from 'node:path';
import { getPackageVersion } from '../runner/package-paths.js';
import { readSmallFile } from './read-small-file.js';

export const REPORT_MARKER_FILE = '.mcp-error-matrix-report';
export const REPORT_MARKER_FORMAT = 'mcp-error-matrix/report-folder@1';

// A marker is a few dozen bytes; anything bigger is not ours and is not read further.
const MARKER_MAX_BYTES = 4096;

/**
 * The marker's text. No timestamp: the same inputs give the same report bytes (the marker is
 * listed in the receipts like every other file of the folder).
 */
export function createReportMarker(): string {
  return `${JSON.stringify({ format: REPORT_MARKER_FORMAT, tool: 'mcp-error-matrix', version: getPackageVersion() })}\n`;
}

/**
 * Whether `dir` holds the marker: a regular file (read by readSmallFile: no symlink, no FIFO,
 * bounded) whose JSON names our format. Unreadable means "not ours".
 */
export async function hasReportMarker(dir: string): Promise<boolean> {
  const text = await readSmallFile(join(dir, REPORT_MARKER_FILE), MARKER_MAX_BYTES);
  if (text === undefined) return false;
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && (parsed as { format?: unknown }).format === REPORT_MARKER_FORMAT;
  } catch {
    return false;
  }
}
