// Finds the first value nested deeper than a limit, iteratively: a document nested 10,000 deep
// must be refused, not overflow the stack of the very check that refuses it (issue 11 item 10).

interface PathNode {
  key: string;
  parent: PathNode | undefined;
}

/**
 * The JSON pointer of the first array or object (depth-first, in document order) nested more
 * than `limit` containers deep, the top-level value counting as depth 1; undefined when none is.
 */
export function findDeepNesting(value: unknown, limit: number): string | undefined {
  const stack: { value: unknown; depth: number; path: PathNode | undefined }[] = [{ value, depth: 1, path: undefined }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (typeof item.value !== 'object' || item.value === null) continue;
    if (item.depth > limit) return formatPointer(item.path);
    const entries: [string, unknown][] = Array.isArray(item.value)
      ? item.value.map((child, index) => [String(index), child])
      : Object.entries(item.value);
    // Pushed in reverse so the first child is examined first.
    for (let index = entries.length - 1; index >= 0; index--) {
      const [key, child] = entries[index]!;
      if (typeof child === 'object' && child !== null) stack.push({ value: child, depth: item.depth + 1, path: { key, parent: item.path } });
    }
  }
  return undefined;
}

function formatPointer(path: PathNode | undefined): string {
  const keys: string[] = [];
  for (let node = path; node; node = node.parent) keys.push(node.key.replace(/~/g, '~0').replace(/\//g, '~1'));
  return keys.length === 0 ? '' : `/${keys.reverse().join('/')}`;
}
