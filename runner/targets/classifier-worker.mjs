// Runs a user's classifier module (`--target classifier:<module>`) inside a worker thread, so
// whatever the module does — call process.exit, throw later from a timer, leave a rejection
// unhandled, block its event loop, patch globals, mutate its input — stays in this thread.
// Each call arrives as a structured clone (its own copy); the answer goes back the same way.
// Plain ESM, shipped as-is (never compiled): it must load before any TypeScript tooling.
//
// Messages in:  { type: 'call', id, exportName, input }
// Messages out: { type: 'loaded', exports: { name: typeof } } | { type: 'load-error', message }
//               { type: 'started', id } (the call's deadline runs from here)
//               { type: 'answer', id, value } | { type: 'threw', id, message } | { type: 'unsendable', id, message }
//               { type: 'too-large', id, message } (the answer holds more than workerData.maxAnswerChars characters)
import { pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';

// Captured before the module is imported: a module that patches MessagePort, Object.prototype
// or JSON cannot change how answers travel back.
const port = parentPort;
const post = port.postMessage.bind(port);
const keys = Object.keys;
const stringOf = String;
const isView = ArrayBuffer.isView;
const maxAnswerChars = workerData.maxAnswerChars;
let exports;

port.on('message', (message) => {
  if (message?.type === 'call') void answer(message.id, message.exportName, message.input);
});

try {
  exports = await import(pathToFileURL(workerData.file).href);
  const kinds = {};
  for (const name of keys(exports)) kinds[name] = typeof exports[name];
  post({ type: 'loaded', exports: kinds });
} catch (error) {
  post({ type: 'load-error', message: describeError(error) });
}

async function answer(id, exportName, input) {
  let value;
  post({ type: 'started', id });
  try {
    value = await exports[exportName](input);
  } catch (error) {
    post({ type: 'threw', id, message: describeError(error) });
    return;
  }
  // Measured before it is copied: posting a 400 MB detail would flatten and copy it twice (issue 28 item 4).
  const size = measureAnswer(value, maxAnswerChars);
  if (size !== undefined) {
    post({ type: 'too-large', id, message: `the classifier's answer is larger than the ${maxAnswerChars} characters a classifier may answer for one exchange (${size}); it was not passed back` });
    return;
  }
  try {
    post({ type: 'answer', id, value });
  } catch (error) {
    // Functions, symbols, class instances with private state...: the verdict is not plain data.
    post({ type: 'unsendable', id, message: describeError(error) });
  }
}

/**
 * Counts the characters of an answer without copying it (strings and keys by length, 8 for any
 * other value, typed arrays by bytes), each object once; returns where it passes `max` (its largest
 * string and that string's path), or undefined while it stays within. A string's length is read
 * without flattening a rope: a detail of 'x'.repeat(4e8) costs nothing here. An answer that throws
 * while being read is left to postMessage, which reports it as unsendable.
 */
function measureAnswer(value, max) {
  let total = 0;
  let largest = { length: -1, path: 'the answer' };
  const seen = new Set();
  const stack = [[value, 'the answer']];
  try {
    while (stack.length > 0) {
      const [item, path] = stack.pop();
      if (typeof item === 'string') {
        total += item.length;
        if (item.length > largest.length) largest = { length: item.length, path };
      } else if (item !== null && typeof item === 'object') {
        if (seen.has(item)) continue;
        seen.add(item);
        if (isView(item)) total += item.byteLength;
        else for (const key of keys(item)) {
          total += key.length;
          stack.push([item[key], path === 'the answer' ? `\`${key}\`` : `${path}.${key}`]);
        }
      } else total += 8;
      if (total > max) return `${largest.length >= max / 2 ? `a string of ${largest.length} characters at ${largest.path}` : 'too many values'}`;
    }
  } catch {
    return undefined;
  }
  return undefined;
}

function describeError(error) {
  try {
    return error instanceof Error ? `${error.name}: ${error.message}` : stringOf(error);
  } catch {
    return 'a value that cannot be described';
  }
}
