// One random edit of a JSON document at one of its paths: the shared mutation engine of the
// classifier fuzz and the case-file mutations.
import fc from 'fast-check';

export type MutationKind = 'delete' | 'replace' | 'wrong-type' | 'unknown-field' | 'huge-number';

export interface Mutation {
  kind: MutationKind;
  /** Picks the path: an index into every path of the document, modulo their count. */
  pick: number;
  /** The value used by `replace`. */
  value: unknown;
}

export const arbitraryMutation: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constantFrom<MutationKind>('delete', 'replace', 'wrong-type', 'unknown-field', 'huge-number'),
  pick: fc.nat(),
  value: fc.jsonValue({ maxDepth: 2 }),
});

type Path = (string | number)[];

/** Every path in a JSON value, the root (empty path) included, in a stable order. */
export function listPaths(value: unknown, prefix: Path = []): Path[] {
  const paths: Path[] = [prefix];
  if (Array.isArray(value)) value.forEach((item, index) => paths.push(...listPaths(item, [...prefix, index])));
  else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) paths.push(...listPaths(item, [...prefix, key]));
  }
  return paths;
}

/** The RFC 6901 pointer of a path. */
export function toPointer(path: Path): string {
  return path.map((part) => `/${String(part).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/** A value of another JSON type than the one given. */
export function wrongTypeOf(value: unknown): unknown {
  if (typeof value === 'string') return 42;
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return value ? 'true' : 0;
  if (value === null) return {};
  if (Array.isArray(value)) return { 0: value[0] ?? null };
  return ['not', 'an', 'object'];
}

/** Applies the mutation to a deep copy; the original is untouched. Returns the path edited too. */
export function applyMutationAt(document: unknown, mutation: Mutation): { value: unknown; path: Path } {
  const copy = structuredClone(document);
  const paths = listPaths(copy);
  const path = paths[mutation.pick % paths.length] ?? [];
  if (path.length === 0) {
    return { value: mutation.kind === 'delete' ? undefined : mutation.kind === 'replace' ? mutation.value : wrongTypeOf(copy), path };
  }
  const parent = path.slice(0, -1).reduce<unknown>((node, key) => (node as Record<string | number, unknown>)[key], copy) as Record<string | number, unknown> | unknown[];
  const key = path[path.length - 1] as string | number;
  const current = (parent as Record<string | number, unknown>)[key];
  switch (mutation.kind) {
    case 'delete':
      if (Array.isArray(parent)) parent.splice(key as number, 1);
      else delete parent[key];
      break;
    case 'replace':
      (parent as Record<string | number, unknown>)[key] = mutation.value;
      break;
    case 'wrong-type':
      (parent as Record<string | number, unknown>)[key] = wrongTypeOf(current);
      break;
    case 'huge-number':
      (parent as Record<string | number, unknown>)[key] = typeof current === 'number' ? current * 1e300 : Number.MAX_SAFE_INTEGER * 1e10;
      break;
    case 'unknown-field':
      if (typeof current === 'object' && current !== null && !Array.isArray(current)) (current as Record<string, unknown>)['x-fuzz-unknown'] = mutation.value;
      else (parent as Record<string | number, unknown>)[key] = mutation.value;
      break;
  }
  return { value: copy, path };
}

/** Applies the mutation to a deep copy. */
export function applyMutation(document: unknown, mutation: Mutation): unknown {
  return applyMutationAt(document, mutation).value;
}
