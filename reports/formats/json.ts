// results.json (format results@2, schemas/results-v2.schema.json): the run's fields as before,
// and one line per cell with its verdict: case, target, version, status, reason, how it was
// concluded, duration and its failed checks. Every check, schema result, wire recording, target
// output and repro line is in results.full.json.gz beside it (json-full.ts), which `evidence`
// names. The default run's whole model is 49 MB of JSON; this index is about 1.5 MB (issue 30).
import type { Cell, Check, RunResult } from '../../runner/vocabulary/types.js';
import { escapeRawControls, FULL_RESULTS_FILE, FULL_RESULTS_FORMAT, stringifyChunks } from './json-full.js';
import { redactCheck, redactText } from '../redaction/redact-result.js';
import { listResultKeys, toReportSource, type ReportSource } from '../model/index.js';

export { escapeRawControls } from './json-full.js';

export const RESULTS_FORMAT = 'mcp-error-matrix/results@2';

/** Where the whole model is: `results.json`'s `evidence` field. */
export const RESULTS_EVIDENCE = { file: FULL_RESULTS_FILE, format: FULL_RESULTS_FORMAT, encoding: 'gzip' } as const;

/** The fields of a cell results.json keeps; the rest of the cell is in the evidence file. */
export const INDEX_CELL_FIELDS = ['case', 'target', 'protocolVersion', 'status', 'reason', 'errorKind', 'conclusion', 'durationMs', 'checks'] as const;

/** One cell as results.json writes it: its `checks` are the failed ones only. */
export type IndexCell = Pick<Cell, (typeof INDEX_CELL_FIELDS)[number]>;

/** A cell's line of results.json, redacted: what it concluded and which checks failed. */
export function toIndexCell(cell: Cell): IndexCell {
  const failed: Check[] = [];
  for (const check of cell.checks) if (!check.passed) failed.push(redactCheck(check));
  return {
    case: cell.case,
    target: cell.target,
    protocolVersion: cell.protocolVersion,
    status: cell.status,
    ...(cell.reason === undefined ? {} : { reason: redactText(cell.reason) }),
    ...(cell.errorKind === undefined ? {} : { errorKind: cell.errorKind }),
    ...(cell.conclusion === undefined ? {} : { conclusion: cell.conclusion }),
    durationMs: cell.durationMs,
    checks: failed,
  };
}

/** results.json's text. */
export function render(result: RunResult | ReportSource): string {
  return [...renderChunks(result)].join('');
}

/**
 * results.json in chunks: the run's fields indented, then the cells, one compact line each (a
 * cell per line reads and diffs well, at about the size of compact JSON).
 */
export function* renderChunks(input: RunResult | ReportSource): Generator<string> {
  const source = toReportSource(input);
  const head = source.head as Partial<Record<string, unknown>>;
  const nest = (text: string) => text.replace(/\n/g, '\n  ');
  const keys = listResultKeys(source.head).filter((key) => key === 'cells' || (key !== 'format' && head[key] !== undefined && typeof head[key] !== 'function'));
  yield `{\n  "format": ${JSON.stringify(RESULTS_FORMAT)},\n  "evidence": ${nest(JSON.stringify(RESULTS_EVIDENCE, null, 2))}`;
  for (const key of keys) {
    yield `,\n  ${JSON.stringify(key)}: `;
    if (key !== 'cells') {
      yield* stringifyChunks(head[key], 2, 1);
      continue;
    }
    if (source.cellCount === 0) {
      yield '[]';
      continue;
    }
    let lines = '[';
    let i = 0;
    for (const cell of source.cells()) {
      lines += `${i++ ? ',' : ''}\n    ${escapeRawControls(JSON.stringify(toIndexCell(cell)))}`;
      if (lines.length >= 1 << 16) {
        yield lines;
        lines = '';
      }
    }
    yield `${lines}\n  ]`;
  }
  yield '\n}\n';
}
