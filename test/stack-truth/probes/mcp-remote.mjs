// Probe of `mcp-remote@<version>` used as a desktop host uses it: it starts the bridge
// (`mcp-remote <url> --transport http-only`) and speaks JSON-RPC on its stdio — initialize,
// notifications/initialized, tools/call — and what the host reads for its tools/call is the answer:
// the message that carries its id (returned as is), a line that is not JSON (returned as the
// string it is), or the bridge's exit (thrown). The bridge sets no deadline of its own; the host
// declines elicitation, lists no roots and answers ping.
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
      if (init?.result === undefined) {
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
  const fail = (error) => {
    for (const { reject } of waiting.values()) reject(error);
    waiting.clear();
  };
  child.once('exit', (code, signal) => {
    exit = new Error(`the bridge exited (${signal ?? `code ${code}`})`);
    fail(exit);
  });
  const write = (message) => child.stdin.writable && child.stdin.write(JSON.stringify(message) + '\n');
  createInterface({ input: child.stdout }).on('line', (line) => {
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      // Not JSON: the host's oldest open request is the one it cannot complete.
      const [first] = waiting.keys();
      if (first !== undefined) settle(first, 'resolve', line);
      return;
    }
    if (typeof message?.method === 'string') return answerServerRequest(message, write);
    if (waiting.has(message?.id)) settle(message.id, 'resolve', message);
  });
  function settle(id, how, value) {
    const entry = waiting.get(id);
    waiting.delete(id);
    entry?.[how](value);
  }
  return {
    request(method, params, signal) {
      if (exit) return Promise.reject(exit);
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
