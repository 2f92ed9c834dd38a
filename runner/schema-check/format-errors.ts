// Turns ajv's error list into a few short lines such as `/result/content: must be array`.
// The one hard part is unions (anyOf): ajv reports every branch's failures, which for a bad
// content block means a dozen lines about text, image, audio... We pick the branch the value
// names through a discriminator (`type`, `method`, `resultType` const) and report only that
// branch's errors; with no usable discriminator we say which shapes were allowed.
import type { ErrorObject } from 'ajv';

const DISCRIMINATORS = ['type', 'method', 'resultType'] as const;

/** Validates a value against a named definition of the same schema; null when valid. */
export type Revalidate = (definition: string, value: unknown) => ErrorObject[] | null;

/** Readable lines for ajv errors (compiled with `verbose: true` so errors carry data and parentSchema). */
export function formatAjvErrors(errors: readonly ErrorObject[], defs: Record<string, unknown>, revalidate: Revalidate): string[] {
  return dedupe(simplify(errors, defs, revalidate, 0));
}

/** Caps a list of lines, saying how many were left out. */
export function capErrors(lines: string[], max = 8): string[] {
  return lines.length <= max ? lines : [...lines.slice(0, max - 1), `… and ${lines.length - max + 1} more`];
}

function simplify(errors: readonly ErrorObject[], defs: Record<string, unknown>, revalidate: Revalidate, depth: number): string[] {
  const unions = errors
    .filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf')
    .sort((a, b) => pathDepth(a.instancePath) - pathDepth(b.instancePath));
  let remaining = [...errors];
  const lines: string[] = [];
  for (const union of unions) {
    if (!remaining.includes(union)) continue;
    const region = remaining.filter((e) => isUnder(e.instancePath, union.instancePath));
    remaining = remaining.filter((e) => !region.includes(e));
    lines.push(...explainUnion(union, region, defs, revalidate, depth));
  }
  return [...lines, ...remaining.map(formatOne)];
}

function explainUnion(
  union: ErrorObject,
  region: ErrorObject[],
  defs: Record<string, unknown>,
  revalidate: Revalidate,
  depth: number,
): string[] {
  const at = union.instancePath;
  const branches = getBranches(union.parentSchema, defs);
  const chosen = depth < 8 ? pickBranch(branches, union.data) : undefined;
  if (chosen?.name) {
    const inner = revalidate(chosen.name, union.data) ?? [];
    return simplify(inner, defs, revalidate, depth + 1).map((line) => prefixLine(at, line));
  }
  const discriminator = getUnmatchedDiscriminator(branches, union.data);
  if (discriminator) {
    const allowed = branches.map((b) => JSON.stringify(b.consts[discriminator])).filter((s) => s !== undefined);
    const got = JSON.stringify((union.data as Record<string, unknown>)[discriminator]);
    return [`${displayPath(`${at}/${discriminator}`)}: must be one of ${allowed.join(', ')} (got ${got})`];
  }
  const names = branches.map((b) => b.name ?? b.typeName).filter(Boolean);
  const summary = `${displayPath(at)}: must match ${names.length ? `one of ${names.join(', ')}` : `a schema in ${union.keyword}`}`;
  const details = simplify(region.filter((e) => e !== union), defs, revalidate, depth + 1);
  return [summary, ...details];
}

interface Branch {
  name?: string;
  typeName?: string;
  consts: Partial<Record<(typeof DISCRIMINATORS)[number], unknown>>;
}

function getBranches(parentSchema: unknown, defs: Record<string, unknown>): Branch[] {
  const list = isRecord(parentSchema) ? (parentSchema.anyOf ?? parentSchema.oneOf) : undefined;
  if (!Array.isArray(list)) return [];
  return list.map((member: unknown) => {
    const ref = isRecord(member) && typeof member.$ref === 'string' ? member.$ref : undefined;
    // `#/$defs/X` (draft 2020-12) or `#/definitions/X` (draft-07, 2025-03-26/2025-06-18).
    const name = ref ? /^#\/(?:\$defs|definitions)\/(.+)$/.exec(ref)?.[1] : undefined;
    const schema = name ? defs[name] : member;
    const consts: Branch['consts'] = {};
    const properties = isRecord(schema) && isRecord(schema.properties) ? schema.properties : {};
    for (const key of DISCRIMINATORS) {
      const property = properties[key];
      if (isRecord(property) && 'const' in property) consts[key] = property.const;
    }
    const typeName = isRecord(schema) && typeof schema.type === 'string' ? schema.type : undefined;
    return { name, typeName, consts };
  });
}

function pickBranch(branches: Branch[], data: unknown): Branch | undefined {
  if (!isRecord(data)) return undefined;
  for (const key of DISCRIMINATORS) {
    if (!branches.every((b) => key in b.consts)) continue;
    const matches = branches.filter((b) => b.consts[key] === data[key]);
    if (matches.length === 1) return matches[0];
  }
  return undefined;
}

function getUnmatchedDiscriminator(branches: Branch[], data: unknown): (typeof DISCRIMINATORS)[number] | undefined {
  if (!isRecord(data) || branches.length === 0) return undefined;
  return DISCRIMINATORS.find((key) => branches.every((b) => key in b.consts) && branches.every((b) => b.consts[key] !== data[key]));
}

function formatOne(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  let message = error.message ?? error.keyword;
  if (error.keyword === 'const') message = `must be ${JSON.stringify(params.allowedValue)}`;
  else if (error.keyword === 'enum' && Array.isArray(params.allowedValues)) {
    message = `must be one of ${params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
  } else if (error.keyword === 'additionalProperties') message = `must NOT have additional property '${String(params.additionalProperty)}'`;
  else if (error.keyword === 'type') {
    const expected = String(params.type).split(',').join(' or ');
    message = `must be ${expected}${'data' in error ? ` (got ${describeType(error.data)})` : ''}`;
  }
  return `${displayPath(error.instancePath)}: ${message}`;
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function prefixLine(prefix: string, line: string): string {
  if (!prefix) return line;
  return line.startsWith('/: ') ? `${prefix}${line.slice(1)}` : `${prefix}${line}`;
}

function displayPath(path: string): string {
  return path === '' ? '/' : path;
}

function isUnder(path: string, root: string): boolean {
  return path === root || path.startsWith(`${root}/`);
}

function pathDepth(path: string): number {
  return path === '' ? 0 : path.split('/').length - 1;
}

function dedupe(lines: string[]): string[] {
  return [...new Set(lines)];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
