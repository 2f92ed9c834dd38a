// Adapter for `mcp-remote@<version>`: the stdio bridge desktop hosts use for remote servers. One
// bridge process per cell (it is bound to one server URL): `node <package>/<bin> <url>
// --transport http-only`, then the adapter speaks JSON-RPC on its stdio as a host does
// (initialize, notifications/initialized, tools/call) and judges what the host side receives.
// Loaded by ../worker.mjs.
//
// Deadlines: the bridge gives the host no timeout of its own (its SDK's toward the server is 60 s);
// a stdio host's request deadline is the only one, and it covers whatever the bridge does for the
// call (reconnects, retries): `cell.callDeadlineMs`, long enough for the case's rounds. What the
// bridge sends the server is not visible here; the runner counts its tools/call from the recording.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { drainWire } from '../drain-wire.mjs';
import { mapObservation } from '../map-observation.mjs';
import { preview } from '../observe-call.mjs';

/** A process start per cell: the runner grants each cell this much more time than an in-process client. */
const STARTUP_MS = 20_000;
const STDERR_CAP = 4096;

export async function load(dir, pkg, tools) {
  const bin = typeof pkg.bin === 'object' ? pkg.bin['mcp-remote'] : pkg.bin;
  if (typeof bin !== 'string') throw new Error(`mcp-remote ${pkg.version} declares no mcp-remote bin`);
  // Its own config folder (it keeps OAuth state there), made and removed by us, never the user's ~/.mcp-auth.
  const configDir = mkdtempSync(join(tmpdir(), 'mem-mcp-remote-'));
  process.once('exit', () => rmSync(configDir, { recursive: true, force: true }));
  return { versions: 'probe', startupMs: STARTUP_MS, runCell: (cell) => runCell(join(dir, bin), configDir, cell, tools) };
}

async function runCell(script, configDir, cell, { describe, elapsed, createCellLog }) {
  const started = performance.now();
  const log = createCellLog();
  const bridge = startBridge(script, configDir, cell.url);
  try {
    const init = await bridge.request('initialize', { protocolVersion: '2025-11-25', capabilities: { elicitation: {}, roots: {} }, clientInfo: { name: 'mcp-error-matrix-mcp-remote-host', version: '0.1.0' } }, STARTUP_MS);
    if (init.kind !== 'message' || !init.message.result) {
      return { id: cell.id, error: `connect failed before any tools/call: the bridge answered initialize with ${describeAnswer(init)}`, notes: bridge.notes(), durationMs: elapsed(started) };
    }
    bridge.notify('notifications/initialized');
    const calls = [];
    const results = [];
    const deadlineMs = cell.callDeadlineMs ?? cell.timeoutMs;
    for (let call = 0; call < cell.calls; call++) {
      const answer = await bridge.request('tools/call', { name: cell.tool, arguments: cell.arguments }, deadlineMs);
      const observation = { returned: describeReceived(answer, deadlineMs) };
      calls.push(observation);
      results.push(mapObservation('mcp-remote', observation, { protocolVersion: cell.protocolVersion, toolCallStatuses: [], peerErrorCodes: [] }));
    }
    // The drain window: the bridge stays up, so a re-send it makes after answering reaches the server.
    await drainWire(log);
    return { id: cell.id, results, observed: { calls }, notes: [...log.notes, ...bridge.notes()], durationMs: elapsed(started) };
  } catch (error) {
    return { id: cell.id, error: `the bridge failed: ${describe(error)}`, notes: bridge.notes(), durationMs: elapsed(started) };
  } finally {
    await bridge.stop();
  }
}

/** What the host read for one request, as the observation's `returned` (map-mcp-remote-outcome.mjs). */
function describeReceived(answer, waitedMs) {
  if (answer.kind === 'message') return { received: 'message', message: preview(answer.message) };
  if (answer.kind === 'garbage') return { received: 'line', line: preview(answer.line) };
  return answer.exit ? { received: 'nothing', exit: answer.exit } : { received: 'nothing', waitedMs };
}

function describeAnswer(answer) {
  if (answer.kind === 'message') return JSON.stringify(answer.message).slice(0, 300);
  if (answer.kind === 'garbage') return `a line that is not JSON: ${answer.line.slice(0, 200)}`;
  return answer.exit ? `nothing (it exited: ${answer.exit})` : 'nothing in time';
}

/** The bridge process and a host's side of its stdio. */
function startBridge(script, configDir, url) {
  const child = spawn(process.execPath, [script, url, '--transport', 'http-only'], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, MCP_REMOTE_CONFIG_DIR: configDir },
  });
  let stderr = '';
  let exit;
  let nextId = 1;
  const waiting = new Map();
  const settleAll = (answer) => {
    for (const [id, resolve] of waiting) {
      waiting.delete(id);
      resolve(answer);
    }
  };
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk) => {
    if (stderr.length < STDERR_CAP) stderr += chunk.slice(0, STDERR_CAP - stderr.length);
  });
  child.stdin.on('error', () => {});
  child.once('exit', (code, signal) => {
    exit = signal ?? `code ${code}`;
    settleAll({ kind: 'silence', exit });
  });
  child.once('error', (error) => settleAll({ kind: 'silence', exit: error.message }));
  const write = (message) => child.stdin.writable && child.stdin.write(JSON.stringify(message) + '\n');
  createInterface({ input: child.stdout }).on('line', (line) => {
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      // Not JSON: the oldest pending request is the one a host would fail.
      const [first] = waiting.keys();
      if (first !== undefined) answer(first, { kind: 'garbage', line });
      return;
    }
    if (message && typeof message.method === 'string') return answerServerRequest(message, write);
    if (message && waiting.has(message.id)) answer(message.id, { kind: 'message', message });
  });
  function answer(id, value) {
    const resolve = waiting.get(id);
    waiting.delete(id);
    resolve?.(value);
  }
  return {
    request(method, params, timeoutMs) {
      const id = nextId++;
      return new Promise((resolve) => {
        if (exit) return resolve({ kind: 'silence', exit });
        const timer = setTimeout(() => answer(id, { kind: 'silence' }), timeoutMs);
        waiting.set(id, (value) => {
          clearTimeout(timer);
          resolve(value);
        });
        write({ jsonrpc: '2.0', id, method, params });
      });
    },
    notify(method) {
      write({ jsonrpc: '2.0', method });
    },
    notes() {
      return stderr ? [`bridge stderr: ${stderr.trim().slice(-1500)}`] : [];
    },
    async stop() {
      if (exit) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.stdin.end();
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 1000);
      await exited;
      clearTimeout(timer);
    },
  };
}

// What a host answers to a request the server sends through the bridge: it declines elicitation,
// has no roots, answers ping; anything else is "method not found".
function answerServerRequest(message, write) {
  if (message.id === undefined) return; // a notification (progress, log): nothing to answer
  const results = { ping: {}, 'roots/list': { roots: [] }, 'elicitation/create': { action: 'decline' } };
  const result = results[message.method];
  write(result ? { jsonrpc: '2.0', id: message.id, result } : { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } });
}
