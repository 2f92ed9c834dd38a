// Adapter for `inspector-cli@<version>`: the official MCP Inspector's command line, as a developer runs
// it to call a tool by hand: `npx @modelcontextprotocol/inspector --cli <url> --transport http
// --method tools/call --tool-name <name> …`, one process per call. What the developer reads is what
// it printed and its exit status: the observation of a call is exactly that (map-inspector-cli-outcome.mjs).
// Loaded by ../worker.mjs.
//
// 2.x ships the CLI inside `@modelcontextprotocol/inspector` (clients/cli, launched by `mcp-inspector
// --cli`); 1.x launches its copy of `@modelcontextprotocol/inspector-cli` as a child process. Flags
// per major: 2.x takes the arguments verbatim (`--tool-args-json`), negotiates the protocol era when
// asked (`--protocol-era auto`: ad hoc runs default to legacy, which a 2026-07-28 server refuses) and
// never starts an interactive OAuth login (`--stored-auth-only`, its switch for non-interactive runs:
// no browser, no prompt); 1.x takes `--tool-arg key=<JSON value>` pairs and has none of those.
//
// Deadlines: neither major offers a request timeout on the command line (2.x reads `requestTimeout`
// from a config file for its web UI only), so each request has the SDK's default of 60 s. The host's
// last resort (`callBudgetMs`) starts when the CLI sends its tools/call and stops the process if it
// has printed nothing by then: the call concluded nothing. Nothing is sent after the process exits,
// so there is no drain window. What the CLI sent, and the statuses and error codes it got, come from
// a preload in its process (cli-wire-preload.mjs).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { mapObservation } from '../map-observation.mjs';
import { MESSAGE_CAP } from '../observe-call.mjs';
import { WIRE_PREFIX } from './cli-wire-preload.mjs';

const PRELOAD_URL = new URL('./cli-wire-preload.mjs', import.meta.url).href;
/** The process groups of the CLIs running now: stopped when the worker exits, so none outlives it. */
const running = new Set();
process.once('exit', () => {
  for (const pid of running) signalGroup(pid, 'SIGKILL');
});

/** A process start per call: the runner grants each cell this much more time than an in-process client. */
const STARTUP_MS = 60_000;
/** What is kept of each stream while the process runs (the record keeps MESSAGE_CAP of it). */
const STREAM_CAP = 64 * 1024;
/** After it printed its conclusion, how long the CLI may take to exit (closing its connection). */
const EXIT_LIMIT_MS = 30_000;
/** After SIGTERM, how long the process may take to exit before SIGKILL. */
const KILL_GRACE_MS = 1000;

export async function load(dir, pkg) {
  const bin = typeof pkg.bin === 'object' ? pkg.bin['mcp-inspector'] : undefined;
  if (typeof bin !== 'string') throw new Error(`@modelcontextprotocol/inspector ${pkg.version} declares no mcp-inspector bin`);
  const major = Number(String(pkg.version).split('.')[0]);
  // Its own home folder (the CLI keeps a catalog, OAuth state and secrets under ~/.mcp-inspector),
  // made and removed by us, never the user's.
  const home = mkdtempSync(join(tmpdir(), 'mem-inspector-cli-'));
  process.once('exit', () => rmSync(home, { recursive: true, force: true }));
  const script = join(dir, bin);
  return { versions: 'probe', startupMs: STARTUP_MS, runCell: (cell) => runCell({ script, major, home }, cell) };
}

async function runCell(cli, cell) {
  const started = performance.now();
  const calls = [];
  const results = [];
  let toolCallsSent = 0;
  for (let call = 0; call < cell.calls; call++) {
    const ran = await runCli(cli, cell);
    toolCallsSent += ran.wire.sent;
    // Connecting and listing are not under test: a CLI that exits (or is stopped) before it sends the
    // tools/call failed to connect, as an in-process client's connect() would.
    if (ran.wire.sent === 0) {
      const how = ran.record.stoppedByHost ? `was stopped after ${STARTUP_MS} ms` : `exited (${ran.record.exit})`;
      return { id: cell.id, error: `connect failed before any tools/call: the CLI ${how} before it sent tools/call: ${tail(ran.record.stderr || ran.record.stdout)}`, notes: ran.notes, durationMs: elapsed(started) };
    }
    const observation = { returned: ran.record };
    calls.push(observation);
    results.push(mapObservation('inspector-cli', observation, { protocolVersion: cell.protocolVersion, toolCallStatuses: ran.wire.statuses, peerErrorCodes: ran.wire.peerErrorCodes }));
  }
  return { id: cell.id, results, observed: { calls, toolCallsSent }, notes: [], durationMs: elapsed(started) };
}

/** The command line a developer types for the cell's call, per major. */
export function buildArguments(major, cell) {
  const common = ['--cli', cell.url, '--transport', 'http', '--method', 'tools/call', '--tool-name', cell.tool];
  if (major >= 2) return [...common, '--tool-args-json', JSON.stringify(cell.arguments ?? {}), '--protocol-era', 'auto', '--stored-auth-only'];
  // 1.x parses each value as JSON first (a string that is not JSON stays a string): JSON keeps every type.
  const pairs = Object.entries(cell.arguments ?? {}).map(([key, value]) => `${key}=${JSON.stringify(value)}`);
  return pairs.length > 0 ? [...common, '--tool-arg', ...pairs] : common;
}

/**
 * Runs the CLI once. The host's last resort (`callBudgetMs`) starts when the CLI sends its tools/call
 * (the preload reports it) and ends when it prints its conclusion (a result on stdout, or an error
 * line on stderr), after which it gets EXIT_LIMIT_MS to exit; connecting and listing get STARTUP_MS,
 * as a process start. Resolves with the record of what the CLI printed and how it ended, and what the
 * preload saw on the wire.
 */
function runCli({ script, major, home }, cell) {
  const budgetMs = cell.callBudgetMs ?? cell.timeoutMs * 3;
  const started = performance.now();
  const wire = { sent: 0, statuses: [], peerErrorCodes: [] };
  return new Promise((resolve) => {
    // Its own process group, so stopping it stops the CLI that 1.x's launcher starts as well.
    const child = spawn(process.execPath, [script, ...buildArguments(major, cell)], {
      detached: process.platform !== 'win32',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        // Its own ~/.mcp-inspector; secrets in memory (no keychain on a headless machine, and nothing written).
        HOME: home,
        USERPROFILE: home,
        MCP_INSPECTOR_SECRET_STORE: 'memory',
        NO_COLOR: '1',
        MEM_CLI_WIRE: '1',
        NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${PRELOAD_URL}`.trim(),
      },
    });
    const output = { stdout: '', stderr: '' };
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      if (output.stdout.length < STREAM_CAP) output.stdout += chunk.slice(0, STREAM_CAP - output.stdout.length);
      if (isJson(output.stdout)) concluded();
    });
    // stderr line by line: the preload's lines are the wire, every other line is the CLI's.
    createInterface({ input: child.stderr }).on('line', (line) => {
      if (line.startsWith(WIRE_PREFIX)) return readWireEvent(line.slice(WIRE_PREFIX.length));
      if (output.stderr.length < STREAM_CAP) output.stderr += `${line}\n`.slice(0, STREAM_CAP - output.stderr.length);
      if (isJson(line)) concluded();
    });
    let stopped = false;
    let killTimer;
    const signal = (name) => (process.platform === 'win32' ? child.kill(name) : signalGroup(child.pid, name));
    if (child.pid !== undefined) running.add(child.pid);
    const stop = () => {
      stopped = true;
      signal('SIGTERM');
      killTimer = setTimeout(() => signal('SIGKILL'), KILL_GRACE_MS);
    };
    let stopTimer = setTimeout(stop, STARTUP_MS);
    // Once it has printed its result (or its error), the call is over: it gets EXIT_LIMIT_MS to exit.
    let hasConcluded = false;
    const concluded = () => {
      if (hasConcluded || stopped) return;
      hasConcluded = true;
      clearTimeout(stopTimer);
      stopTimer = setTimeout(stop, EXIT_LIMIT_MS);
    };
    function readWireEvent(text) {
      let event;
      try {
        event = JSON.parse(text);
      } catch {
        return;
      }
      if (typeof event?.sent === 'number') {
        if (wire.sent === 0 && !stopped && !hasConcluded) {
          clearTimeout(stopTimer);
          stopTimer = setTimeout(stop, budgetMs);
        }
        wire.sent += event.sent;
      } else if (typeof event?.status === 'number') wire.statuses.push(event.status);
      else if (typeof event?.peerError?.code === 'number' && !wire.peerErrorCodes.includes(event.peerError.code)) wire.peerErrorCodes.push(event.peerError.code);
    }
    let settled = false;
    const finish = (exit) => {
      if (settled) return;
      settled = true;
      running.delete(child.pid);
      clearTimeout(stopTimer);
      clearTimeout(killTimer);
      const record = { exit, stdout: cap(output.stdout), stderr: cap(output.stderr) };
      if (stopped) Object.assign(record, { stoppedByHost: true, afterMs: Math.round(performance.now() - started) });
      resolve({ record, wire, notes: [] });
    };
    child.once('error', (error) => finish(`not started: ${error.message}`));
    // 'close' after 'exit': both streams are read to the end.
    child.once('close', (code, signal) => finish(signal ?? code));
  });
}

function signalGroup(pid, name) {
  try {
    process.kill(-pid, name);
  } catch {
    // Already gone.
  }
}

function isJson(text) {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function tail(text) {
  return String(text).trim().split('\n').slice(-3).join(' ').slice(-500) || 'nothing printed';
}

function elapsed(started) {
  return Math.round(performance.now() - started);
}

function cap(text) {
  return text.length <= MESSAGE_CAP ? text : `${text.slice(0, MESSAGE_CAP)}[… ${text.length - MESSAGE_CAP} more characters]`;
}
