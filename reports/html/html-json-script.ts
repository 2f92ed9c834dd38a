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

/** Pieces of escaped text gathered to about this many characters each. */
const PIECE_CHARS = 1 << 16;

/**
 * `JSON.stringify(record)` without its braces, in pieces: an entry at a time, and an array or
 * plain object value an element or entry at a time. The details' `cases` holds every case the run
 * had (97 MB of JSON at 100,000 cases): as one string, then escaped, it was the largest thing a
 * 100,000-case run held (issue 28).
 */
function* entryChunks(record: Readonly<Record<string, unknown>>, nested: boolean): Generator<string> {
  let first = true;
  for (const [key, value] of Object.entries(record)) {
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol') continue;
    yield `${first ? '' : ','}${JSON.stringify(key)}:`;
    first = false;
    if (nested && Array.isArray(value)) {
      yield '[';
      for (let i = 0; i < value.length; i++) yield `${i ? ',' : ''}${JSON.stringify(value[i]) ?? 'null'}`;
      yield ']';
    } else if (nested && isPlainRecord(value)) {
      yield '{';
      yield* entryChunks(value, false);
      yield '}';
    } else yield JSON.stringify(value);
  }
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || typeof (value as { toJSON?: unknown }).toJSON === 'function') return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** Pieces joined to about PIECE_CHARS characters each, escaped for the script block. */
function* escapedPieces(pieces: Iterable<string>): Generator<string> {
  let text = '';
  for (const piece of pieces) {
    text += piece;
    if (text.length >= PIECE_CHARS) {
      yield escapeJsonForScript(text);
      text = '';
    }
  }
  if (text) yield escapeJsonForScript(text);
}

/**
 * The details JSON in pieces (a part or a batch of rows each), never one string. `rows` are the
 * builder's chunks; iterating them may be what adds the cells (html.ts's one pass). With
 * `rowsFirst` they are written as they come and the tables and parts after them; otherwise the
 * rows are gathered first and written last (the order small reports have always had).
 */
export function* serializeDetailsChunks(builder: FinishedDetails, rows: Iterable<string>, rowsFirst: boolean): Generator<string> {
  const gathered = rowsFirst ? undefined : [...rows];
  // Everything but the rows and the parts, as JSON.stringify writes it, less its braces.
  function* head(before: string, after: string) {
    const { parts: _parts, ...rest } = builder.finish();
    yield before;
    yield* entryChunks(rest, true);
    yield after;
  }
  if (rowsFirst) {
    yield '{"cells":[';
    yield* rows;
    yield* escapedPieces(head('],', ',"parts":['));
  } else {
    yield* escapedPieces(head('{', ',"parts":['));
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
