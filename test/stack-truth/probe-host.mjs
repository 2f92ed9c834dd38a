// The process a truth-corpus probe runs in: it loads one probe (./probes/<kind>.mjs), which uses
// one installed client library exactly as an application does, and records what each call gave
// the host with observe-call.mjs, before any mapping. No adapter code of runner/targets/sdk/ is
// loaded: the probe is the independent witness the adapters are checked against.
//
//   node --experimental-import-meta-resolve probe-host.mjs <kind> <package alias>
//
// (the flag lets a probe resolve the SDK a stack imports exactly as Node resolves it from the
// stack's own files, so `instanceOf` is checked against the very classes the library throws.)
//
// stdin, one JSON object per line:  {op: 'open', url, protocolVersion, tool}
//                                    {op: 'call', arguments}      (one explicit call)
//                                    {op: 'close'}
// stdout, one JSON object per line:  {hello: {package, version, builtOn?}} once at start-up, then
//                                    {opened: true} | {openFailed: <thrown>}
//                                    {call: <CallObservation>, tookMs}
//                                    {closed: true}
// Console output of the library goes to stderr, so stdout carries answers only.
import { createInterface } from 'node:readline';
import { collectErrorClasses, observeReturned, observeThrown } from '../../runner/targets/sdk/observe-call.mjs';

/**
 * How long the host waits for one call before it gives up: far beyond every library's own default
 * deadline (60 s), so it never decides a cell the corpus keeps; a call still pending then is
 * recorded as the host's abort (`hostAborted`) or, if even that does not settle it, as `hung`.
 * STACK_TRUTH_PATIENCE_MS shortens it for a scouting run (finding the cases a library without a
 * deadline waits on for ever); never for a recording.
 */
const HOST_PATIENCE_MS = Number(process.env.STACK_TRUTH_PATIENCE_MS) || 150_000;
const AFTER_ABORT_MS = 5_000;

const [kind, alias] = process.argv.slice(2);
for (const method of ['log', 'info', 'debug', 'warn']) console[method] = (...args) => console.error(...args);
process.on('unhandledRejection', (reason) => console.error('probe: unhandled rejection:', String(reason?.message ?? reason)));
process.on('uncaughtException', (error) => console.error('probe: uncaught exception:', String(error?.message ?? error)));

if (!/^[a-z][a-z0-9-]*$/.test(kind ?? '')) throw new Error(`probe-host: unknown probe kind ${JSON.stringify(kind)}`);
const probe = await import(new URL(`./probes/${kind}.mjs`, import.meta.url).href);
const library = await probe.load(alias);
const classes = Object.assign({}, ...library.errorModules.map((module) => collectErrorClasses(module)));
write({ hello: { package: library.package, version: library.version, ...(library.builtOn ? { builtOn: library.builtOn } : {}) } });

let session;
const lines = createInterface({ input: process.stdin });
// One command at a time, in order: a probe is one host doing one thing after another.
let queue = Promise.resolve();
lines.on('line', (line) => {
  const command = JSON.parse(line);
  queue = queue.then(() => handle(command)).then(write, (error) => write({ failed: String(error?.stack ?? error) }));
});
lines.on('close', () => queue.then(() => process.exit(0)));

async function handle(command) {
  if (command.op === 'open') {
    try {
      session = await library.open({ url: command.url, protocolVersion: command.protocolVersion, tool: command.tool });
      return { opened: true };
    } catch (error) {
      session = undefined;
      return { openFailed: observeThrown(error, classes) };
    }
  }
  if (command.op === 'call') return observeCall(command.arguments);
  if (command.op === 'close') {
    const closing = session?.close();
    session = undefined;
    await Promise.race([Promise.resolve(closing).catch(() => {}), sleep(2000)]);
    return { closed: true };
  }
  throw new Error(`probe-host: unknown op ${JSON.stringify(command.op)}`);
}

/** One call under the library's own deadlines; the host's patience is only a safety net. */
async function observeCall(args) {
  const started = performance.now();
  const abort = new AbortController();
  let hostAborted = false;
  const patience = setTimeout(() => {
    hostAborted = true;
    abort.abort(new Error('the probe host gave up waiting'));
  }, HOST_PATIENCE_MS);
  // A probe whose library runs in another runtime (cloudflare-agents: workerd) records the call there
  // with observe-call.mjs and offers `observe`, which gives that observation; a failure of `observe`
  // itself is the probe's, not the library's (the host answers `failed`).
  const settled = session.observe
    ? Promise.resolve().then(() => session.observe(args, abort.signal))
    : Promise.resolve()
        .then(() => session.call(args, abort.signal))
        .then(
          (value) => observeReturned(value),
          (error) => ({ threw: observeThrown(error, classes), ...(hostAborted ? { hostAborted: true } : {}) }),
        );
  const hung = new Promise((resolve) => {
    abort.signal.addEventListener('abort', () => setTimeout(() => resolve({ hung: { afterMs: Math.round(performance.now() - started) } }), AFTER_ABORT_MS).unref(), { once: true });
  });
  try {
    const call = await Promise.race([settled, hung]);
    return { call, tookMs: Math.round(performance.now() - started) };
  } finally {
    clearTimeout(patience);
  }
}

function write(answer) {
  process.stdout.write(JSON.stringify(answer) + '\n');
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
