// Freezes shared constants (the loaded case table, the harness's clientInfo and capabilities)
// so a target that mutates what it was given cannot change what other cells send or record.

/** Freezes a value and everything reachable from it (iteratively: deep data cannot overflow the stack); returns it. */
export function deepFreeze<T>(value: T): T {
  const stack: unknown[] = [value];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const item = stack.pop();
    if (item === null || (typeof item !== 'object' && typeof item !== 'function') || seen.has(item)) continue;
    seen.add(item);
    Object.freeze(item);
    for (const key of Reflect.ownKeys(item)) {
      const descriptor = Object.getOwnPropertyDescriptor(item, key);
      if (descriptor && 'value' in descriptor) stack.push(descriptor.value);
    }
  }
  return value;
}
