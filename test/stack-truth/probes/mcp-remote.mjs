// Probe of `mcp-remote@<version>` used as a desktop host uses it: it starts the bridge
// (`mcp-remote <url> --transport http-only`) and speaks JSON-RPC on its stdio — initialize,
// notifications/initialized, tools/call. The bridge is not a library in the host's process: what
// "it returned" is what the host read on the bridge's stdout for its call, in the record the
// stack's mapping reads (map-mcp-remote-outcome.mjs): { received: 'message', message } for the
// message carrying the call's id, { received: 'line', line } for a line that is not JSON,
// { received: 'nothing', exit } when the bridge exited. The bridge sets no deadline of its own;
// the host declines elicitation, lists no roots and answers ping.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { findInstalled } from './installed.mjs';

export async function load(alias) {
  const installed = findInstalled(`${alias}/package.json`);
  const bin = fileURLToPath(import.meta.resolve(`${alias}/dist/proxy.js`));
  // Its own config folder (it keeps OAuth state there), never the user's ~/.mcp-auth.
  const configDir = mkdtempSync(join(tmpdir(), 'stack-truth-mcp-remote-'));
  process.once('exit', () => rmSync(configDir, { recursive: true, force: true }));
  return {
    package: { name: installed.name, dir: installed.dir },
    version: installed.version,
    errorModules: [],
    async open({ url, tool }) {
      const bridge = startBridge(bin, configDir, url);
      const init = await bridge.request('initialize', { protocolVersion: '2025-11-25', capabilities: { elicitation: {}, roots: {} }, clientInfo: { name: 'stack-truth-probe', version: '0.0.0' } });
      if (init.message?.result === undefined) {
        await bridge.stop();
        throw new Error(`the bridge answered initialize with ${JSON.stringify(init).slice(0, 300)}`);
      }
      bridge.notify('notifications/initialized');
      return {
        call: (args, signal) => bridge.request('tools/call', { name: tool, arguments: args }, signal),
        close: () => bridge.stop(),
      };
    },
  };
}

function startBridge(bin, configDir, url) {
  const child = spawn(process.execPath, [bin, url, '--transport', 'http-only'], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, MCP_REMOTE_CONFIG_DIR: configDir } });
  const waiting = new Map();
  let nextId = 1;
  let exit;
  child.stderr.resume();
  child.stdin.on('error', () => {});
  child.once('exit', (code, signal) => {
    exit = signal ?? `code ${code}`;
    for (const { resolve } of waiting.values()) resolve({ received: 'nothing', exit });
    waiting.clear();
  });
  const write = (message) => child.stdin.writable && child.stdin.write(JSON.stringify(message) + '\n');
  createInterface({ input: child.stdout }).on('line', (line) => {
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      // Not JSON: the host's oldest open request is the one it cannot complete.
      const [first] = waiting.keys();
      if (first !== undefined) settle(first, 'resolve', { received: 'line', line });
      return;
    }
    if (typeof message?.method === 'string') return answerServerRequest(message, write);
    if (waiting.has(message?.id)) settle(message.id, 'resolve', { received: 'message', message });
  });
  function settle(id, how, value) {
    const entry = waiting.get(id);
    waiting.delete(id);
    entry?.[how](value);
  }
  return {
    request(method, params, signal) {
      if (exit) return Promise.resolve({ received: 'nothing', exit });
      const id = nextId++;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        signal?.addEventListener('abort', () => settle(id, 'reject', signal.reason), { once: true });
        write({ jsonrpc: '2.0', id, method, params });
      });
    },
    notify(method) {
      write({ jsonrpc: '2.0', method });
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

function answerServerRequest(message, write) {
  if (message.id === undefined) return;
  const results = { ping: {}, 'roots/list': { roots: [] }, 'elicitation/create': { action: 'decline' } };
  const result = results[message.method];
  write(result ? { jsonrpc: '2.0', id: message.id, result } : { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } });
}
