// The marker every report folder carries: how the tool recognises a folder it wrote (and may
// therefore replace), without guessing from file names. It also lists the files the tool wrote
// beside it, so a file someone else put in the folder is never taken for the tool's own (and
// deleted with the old report: issue 28 item 6).
import { join } from 'node:path';
import { getPackageVersion } from '../../runner/util/package-paths.js';
import { readSmallFile } from './read-small-file.js';

export const REPORT_MARKER_FILE = '.mcp-error-matrix-report';
export const REPORT_MARKER_FORMAT = 'mcp-error-matrix/report-folder@1';

// A marker is a few hundred bytes; anything bigger is not ours and is not read further.
const MARKER_MAX_BYTES = 64 * 1024;

/** What a marker says. */
export interface ReportMarker {
  /** The files the tool wrote into the folder beside the marker (paths relative to it, with `/`); absent in markers of earlier versions. */
  files?: string[];
}

/**
 * The marker's text, listing `files` (sorted). No timestamp: the same inputs give the same report
 * bytes (the marker is listed in the receipts like every other file of the folder).
 */
export function createReportMarker(files: readonly string[] = []): string {
  return `${JSON.stringify({ format: REPORT_MARKER_FORMAT, tool: 'mcp-error-matrix', version: getPackageVersion(), files: [...new Set(files)].sort() })}\n`;
}

/**
 * The marker of `dir`: a regular file (read by readSmallFile: no symlink, no FIFO, bounded) whose
 * JSON names our format; undefined when there is none, or it is not ours.
 */
export async function readReportMarker(dir: string): Promise<ReportMarker | undefined> {
  const text = await readSmallFile(join(dir, REPORT_MARKER_FILE), MARKER_MAX_BYTES);
  if (text === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null || (parsed as { format?: unknown }).format !== REPORT_MARKER_FORMAT) return undefined;
    const files = (parsed as { files?: unknown }).files;
    return Array.isArray(files) && files.every((file) => typeof file === 'string') ? { files: files as string[] } : {};
  } catch {
    return undefined;
  }
}

/** Whether `dir` holds our marker. Unreadable means "not ours". */
export async function hasReportMarker(dir: string): Promise<boolean> {
  return (await readReportMarker(dir)) !== undefined;
}
