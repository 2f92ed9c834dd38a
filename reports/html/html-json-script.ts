// Text for `<script type="application/json">` blocks, the only way data enters matrix.html's
// script: escaped so that nothing in it can end the block, and written in pieces.

/** What the details JSON is made of once every cell was added (html-details.ts DetailsBuilder). */
export interface FinishedDetails {
  finish(): { parts: readonly unknown[] } & Record<string, unknown>;
  /** The parts already written out as escaped JSON text, comma-separated, when they were kept on disk. */
  partChunks?(): Iterable<string> | undefined;
}

/**
 * JSON text for a `<script type="application/json">` block: `<`, `>`, `&` and the JS line
 * separators become \u escapes, so no `</script>` or `<!--` can end the block early.
 */
export function escapeJsonForScript(json: string): string {
  return json
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * The details JSON in pieces (a part or a batch of rows each), never one string. `rows` are the
 * builder's chunks; iterating them may be what adds the cells (html.ts's one pass). With
 * `rowsFirst` they are written as they come and the tables and parts after them; otherwise the
 * rows are gathered first and written last (the order small reports have always had).
 */
export function* serializeDetailsChunks(builder: FinishedDetails, rows: Iterable<string>, rowsFirst: boolean): Generator<string> {
  const gathered = rowsFirst ? undefined : [...rows];
  const head = () => {
    const { parts: _parts, ...rest } = builder.finish();
    return JSON.stringify(rest);
  };
  if (rowsFirst) {
    yield '{"cells":[';
    yield* rows;
    yield escapeJsonForScript(`],${head().slice(1, -1)},"parts":[`);
  } else {
    yield escapeJsonForScript(`${head().slice(0, -1)},"parts":[`);
  }
  const spilled = builder.partChunks?.();
  if (spilled) yield* spilled;
  else {
    const parts = builder.finish().parts;
    for (let i = 0; i < parts.length; i++) yield escapeJsonForScript(`${i ? ',' : ''}${JSON.stringify(parts[i]) ?? 'null'}`);
  }
  if (gathered) {
    yield '],"cells":[';
    yield* gathered;
  }
  yield ']}';
}
