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
import { pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';

// Captured before the module is imported: a module that patches MessagePort, Object.prototype
// or JSON cannot change how answers travel back.
const port = parentPort;
const post = port.postMessage.bind(port);
const keys = Object.keys;
const stringOf = String;
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
  try {
    post({ type: 'answer', id, value });
  } catch (error) {
    // Functions, symbols, class instances with private state...: the verdict is not plain data.
    post({ type: 'unsendable', id, message: describeError(error) });
  }
}

function describeError(error) {
  try {
    return error instanceof Error ? `${error.name}: ${error.message}` : stringOf(error);
  } catch {
    return 'a value that cannot be described';
  }
}
