// `mcp-error-matrix list`: the case table as a text table, with filters.
import type { CliIo } from '../cli/cli-io.js';
import { parseCommandFlags } from '../cli/command-flags.js';
import { CASE_LAYERS, CASE_ORIGINS } from '../cases/case-types.js';
import { loadCases } from '../cases/load-cases.js';
import { selectCases } from '../cases/select-cases.js';
import { UsageError } from '../util/errors.js';
import { parseVersion } from '../cli/options.js';
import { PROTOCOL_VERSIONS } from '../vocabulary/types.js';

const LIST_FLAGS = {
  cases: { type: 'string', multiple: true },
  case: { type: 'string', multiple: true },
  layer: { type: 'string' },
  version: { type: 'string' },
  origin: { type: 'string' },
  json: { type: 'boolean' },
} as const;

export const LIST_USAGE = `Usage: mcp-error-matrix list [options]
  Prints id, layer, origin, versions and title of every case, one per line.

  --cases DIR|GLOB   case files to load (default: the bundled table; repeatable)
  --case ID          only these ids; globs allowed (repeatable)
  --layer L          only this layer: ${CASE_LAYERS.join(' | ')}
  --version V        only cases for this protocol version: ${PROTOCOL_VERSIONS.join(' | ')}
  --origin O         only this origin: ${CASE_ORIGINS.join(' | ')}
  --json             print JSON instead of a table
`;

/** Prints id, layer, origin, versions and title of every selected case. */
export async function runListCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseCommandFlags('list', { args, options: LIST_FLAGS, allowPositionals: false });
  const layer = checkChoice('--layer', values.layer, CASE_LAYERS);
  const origin = checkChoice('--origin', values.origin, CASE_ORIGINS);
  const version = values.version === undefined ? undefined : parseVersion(values.version);
  const cases = selectCases(await loadCases({ sources: values.cases, cwd: io.cwd }), values.case ?? []).filter(
    ({ case: item }) => (!layer || item.layer === layer) && (!origin || item.origin === origin) && (!version || item.versions.includes(version)),
  );
  if (values.json) {
    io.stdout(`${JSON.stringify(cases.map(({ case: c }) => ({ id: c.id, layer: c.layer, origin: c.origin, versions: c.versions, title: c.title })), null, 2)}\n`);
    return 0;
  }
  // Year and month (25-03, 25-06, 25-11, 26-07): the year alone no longer tells the 2025 versions apart.
  const rows = cases.map(({ case: c }) => [c.id, c.layer, c.origin, c.versions.map((v) => v.slice(2, 7)).join('+'), c.title]);
  io.stdout(formatTable(['id', 'layer', 'origin', 'versions', 'title'], rows));
  io.stdout(`${cases.length} case${cases.length === 1 ? '' : 's'}\n`);
  return 0;
}

function checkChoice<T extends string>(flag: string, value: string | undefined, choices: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if ((choices as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`${flag} ${value}: expected one of ${choices.join(', ')}`);
}

/** Left-aligned columns separated by two spaces. */
export function formatTable(header: string[], rows: string[][]): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: string[]) => cells.map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column]!))).join('  ');
  return `${[line(header), ...rows.map(line)].join('\n')}\n`;
}
