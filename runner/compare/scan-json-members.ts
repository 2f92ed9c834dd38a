// A byte-level scanner for the one JSON shape results.json has: a top-level object whose members
// are small, except a few arrays ("cells", "cases") of many values. It hands over each member's
// value, and each element of those arrays, as its own bytes, so a 422 MB results.json is read with the
// memory of one cell, not of the whole document (issue 28 item 4: `compare` of two such files
// peaked at 2.4 GB). It checks only what it must to find the boundaries; each piece it hands over
// is parsed (and so checked) by JSON.parse.

/** Where the scanner is refused: the message says what was expected at which byte. */
export class JsonScanError extends Error {}

export interface JsonMembersHandler {
  /** The whole value of a top-level member other than the streamed one. */
  onMember(key: string, bytes: Buffer): void;
  /** One element of a streamed array, in order. */
  onElement(key: string, bytes: Buffer, index: number): void;
}

export interface JsonMembersOptions {
  /** The members whose arrays are handed over element by element. */
  streamed: ReadonlySet<string>;
  /** Bytes one member value or one element may have; more is a JsonScanError. */
  maxValueBytes: number;
}

const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;
const MAX_KEY_BYTES = 1024;

type Expect = 'bom' | 'open' | 'key-or-end' | 'key' | 'colon' | 'value' | 'member-end' | 'array-open' | 'element-or-end' | 'element-end' | 'done';

/** Feeds the bytes of a document, chunk by chunk, and calls the handler for each piece. */
export class JsonMembersScanner {
  private expect: Expect = 'bom';
  private offset = 0;
  private key = '';
  private keyBytes: number[] = [];
  private inKey = false;
  private keyEscape = false;
  // The value being captured: its chunks, and the state that finds its end.
  private capture: Buffer[] | undefined;
  private captureBytes = 0;
  private depth = 0;
  private inString = false;
  private escape = false;
  private scalar = false;
  private elements = 0;

  constructor(
    private readonly handler: JsonMembersHandler,
    private readonly options: JsonMembersOptions,
  ) {}

  feed(chunk: Buffer): void {
    let i = 0;
    while (i < chunk.length) {
      if (this.capture) {
        i = this.scanValue(chunk, i);
        continue;
      }
      if (this.inKey) {
        i = this.scanKey(chunk, i);
        continue;
      }
      const byte = chunk[i]!;
      if (this.expect === 'bom') {
        // A leading UTF-8 byte-order mark is dropped, as readUserText does.
        if (byte === 0xef && chunk[i + 1] === 0xbb && chunk[i + 2] === 0xbf) i += 3;
        this.expect = 'open';
        continue;
      }
      if (WHITESPACE.has(byte)) {
        i++;
        continue;
      }
      // A value starts at this byte: it is scanned from here, this byte included.
      if (this.expect === 'value' || (this.expect === 'element-or-end' && byte !== CLOSE_ARRAY)) {
        this.startValue(byte);
        continue;
      }
      this.step(byte, this.offset + i);
      i++;
    }
    this.offset += chunk.length;
  }

  /** The document ended: throws unless it was complete. */
  end(): void {
    if (this.capture && this.scalar && this.depth === 0) this.finishValue();
    if (this.expect !== 'done') throw this.fail(this.offset, 'the document ends early (cut short?)');
  }

  private step(byte: number, at: number): void {
    switch (this.expect) {
      case 'open':
        if (byte !== OPEN_OBJECT) throw this.fail(at, 'expected "{" (a JSON object)');
        this.expect = 'key-or-end';
        return;
      case 'key-or-end':
        if (byte === CLOSE_OBJECT) return void (this.expect = 'done');
      // falls through: a key
      case 'key':
        if (byte !== QUOTE) throw this.fail(at, 'expected a member name in double quotes');
        this.inKey = true;
        this.keyBytes = [];
        return;
      case 'colon':
        if (byte !== COLON) throw this.fail(at, 'expected ":" after a member name');
        this.expect = this.options.streamed.has(this.key) ? 'array-open' : 'value';
        return;
      case 'member-end':
        if (byte === COMMA) return void (this.expect = 'key');
        if (byte === CLOSE_OBJECT) return void (this.expect = 'done');
        throw this.fail(at, 'expected "," or "}" after a member');
      case 'array-open':
        if (byte !== OPEN_ARRAY) throw this.fail(at, `expected "[": "${this.key}" must be an array`);
        this.elements = 0;
        this.expect = 'element-or-end';
        return;
      case 'element-or-end':
        // Only "]" arrives here (feed starts a value on anything else).
        this.expect = 'member-end';
        return;
      case 'element-end':
        if (byte === COMMA) return void (this.expect = 'element-or-end');
        if (byte === CLOSE_ARRAY) return void (this.expect = 'member-end');
        throw this.fail(at, `expected "," or "]" after an element of "${this.key}"`);
      case 'done':
        throw this.fail(at, 'expected nothing after the end of the document');
      default:
        throw this.fail(at, 'unexpected input');
    }
  }

  private scanKey(chunk: Buffer, start: number): number {
    let i = start;
    for (; i < chunk.length; i++) {
      const byte = chunk[i]!;
      if (this.keyEscape) this.keyEscape = false;
      else if (byte === BACKSLASH) this.keyEscape = true;
      else if (byte === QUOTE) {
        this.inKey = false;
        this.key = JSON.parse(`"${Buffer.from(this.keyBytes).toString('utf8')}"`) as string;
        this.expect = 'colon';
        return i + 1;
      }
      this.keyBytes.push(byte);
      if (this.keyBytes.length > MAX_KEY_BYTES) throw this.fail(this.offset + i, `a member name longer than ${MAX_KEY_BYTES} bytes`);
    }
    return i;
  }

  private startValue(byte: number): void {
    this.capture = [];
    this.captureBytes = 0;
    this.depth = 0;
    this.inString = false;
    this.escape = false;
    this.scalar = !(byte === OPEN_OBJECT || byte === OPEN_ARRAY || byte === QUOTE);
  }

  /** Scans the captured value from `start`; returns where scanning goes on. */
  private scanValue(chunk: Buffer, from: number): number {
    let i = from;
    let ended = -1;
    if (this.scalar) {
      for (; i < chunk.length; i++) {
        const byte = chunk[i]!;
        if (WHITESPACE.has(byte) || byte === COMMA || byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) {
          ended = i;
          break;
        }
      }
    } else {
      for (; i < chunk.length; i++) {
        const byte = chunk[i]!;
        if (this.inString) {
          if (this.escape) this.escape = false;
          else if (byte === BACKSLASH) this.escape = true;
          else if (byte === QUOTE) {
            this.inString = false;
            if (this.depth === 0) {
              ended = i + 1;
              break;
            }
          }
        } else if (byte === QUOTE) this.inString = true;
        else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) this.depth++;
        else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
          this.depth--;
          if (this.depth === 0) {
            ended = i + 1;
            break;
          }
        }
      }
    }
    const end = ended === -1 ? chunk.length : ended;
    this.captureBytes += end - from;
    if (this.captureBytes > this.options.maxValueBytes) {
      const what = this.expect === 'value' ? `the value of "${this.key}"` : `element ${this.elements} of "${this.key}"`;
      throw new JsonScanError(`${what} is larger than the ${formatBytes(this.options.maxValueBytes)} one may have`);
    }
    this.capture!.push(chunk.subarray(from, end));
    if (ended !== -1) this.finishValue();
    return end;
  }

  private finishValue(): void {
    const bytes = Buffer.concat(this.capture!, this.captureBytes);
    this.capture = undefined;
    if (this.expect === 'value') {
      this.handler.onMember(this.key, bytes);
      this.expect = 'member-end';
    } else {
      this.handler.onElement(this.key, bytes, this.elements++);
      this.expect = 'element-end';
    }
  }

  private fail(at: number, message: string): JsonScanError {
    return new JsonScanError(`not JSON of the expected shape at byte ${at}: ${message}`);
  }
}

function formatBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}
