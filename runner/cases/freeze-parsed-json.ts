// Freezes what JSON.parse returned. Parsed JSON is a tree of plain arrays and objects holding only
// data properties, with nothing shared and no cycles, so it needs neither deep-freeze.ts's set of
// visited objects nor its property descriptors (which were most of loading the table).

/** Freezes a JSON.parse result and everything inside it (iteratively: deep data cannot overflow the stack); returns it. */
export function freezeParsedJson<T>(value: T): T {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item !== 'object' || item === null) continue;
    Object.freeze(item);
    if (Array.isArray(item)) for (const element of item) stack.push(element);
    else for (const key of Object.keys(item)) stack.push((item as Record<string, unknown>)[key]);
  }
  return value;
}
