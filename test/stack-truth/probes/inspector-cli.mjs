// Probe of `inspector-cli@<version>` (the official MCP Inspector's command line) used as a developer
// uses it to call a tool by hand: one run of `mcp-inspector --cli <url> --transport http --method
// tools/call --tool-name <name> …` per call, with the flags its own help gives for a non-interactive
// run (2.x: `--tool-args-json`, `--protocol-era auto`, `--stored-auth-only`; 1.x: `--tool-arg
// key=<JSON>`). What the developer reads is all the CLI gives: its exit status and what it printed,
// recorded as `{ exit, stdout, stderr }` (exit: the code, or the signal's name). The CLI takes no
// timeout flag; each request has its SDK's default. The probe host's abort (its patience, far beyond
// that default) stops the run's process group: `{ …, stoppedByHost: true }`. No adapter code, and no
// wire preload: the statuses and error codes come from the mock server's recording.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findInstalled } from './installed.mjs';

/** What is kept of each stream (the CLI prints a result as pretty JSON; a Zod issue list can be long). */
const STREAM_CAP = 16_000;

export async function load(alias) {
  const installed = findInstalled(`${alias}/package.json`);
  const packageJson = fileURLToPath(import.meta.resolve(`${alias}/package.json`));
  const pkg = JSON.parse(readFileSync(packageJson, 'utf8'));
  const bin = typeof pkg.bin === 'object' ? pkg.bin['mcp-inspector'] : undefined;
  if (typeof bin !== 'string') throw new Error(`${pkg.name} ${pkg.version} declares no mcp-inspector bin`);
  const script = join(dirname(packageJson), bin);
  const major = Number(String(pkg.version).split('.')[0]);
  // Its own home (the CLI keeps a catalog and OAuth state under ~/.mcp-inspector), never the user's.
  const home = mkdtempSync(join(tmpdir(), 'stack-truth-inspector-cli-'));
  process.once('exit', () => rmSync(home, { recursive: true, force: true }));
  return {
    package: { name: installed.name, dir: installed.dir },
    version: installed.version,
    errorModules: [],
    async open({ url, tool }) {
      return {
        call: (args, signal) => runCli(script, cliArguments(major, url, tool, args), home, signal),
        close: async () => {},
      };
    },
  };
}

/** The command line of its README's tools/call example, per major. */
function cliArguments(major, url, tool, args) {
  const common = ['--cli', url, '--transport', 'http', '--method', 'tools/call', '--tool-name', tool];
  if (major >= 2) return [...common, '--tool-args-json', JSON.stringify(args ?? {}), '--protocol-era', 'auto', '--stored-auth-only'];
  const pairs = Object.entries(args ?? {}).map(([key, value]) => `${key}=${JSON.stringify(value)}`);
  return pairs.length > 0 ? [...common, '--tool-arg', ...pairs] : common;
}

function runCli(script, args, home, signal) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script, ...args], {
      detached: process.platform !== 'win32',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, HOME: home, USERPROFILE: home, MCP_INSPECTOR_SECRET_STORE: 'memory', NO_COLOR: '1' },
    });
    const output = { stdout: '', stderr: '' };
    for (const name of ['stdout', 'stderr']) {
      child[name].setEncoding('utf8');
      child[name].on('data', (chunk) => {
        if (output[name].length < STREAM_CAP) output[name] += chunk.slice(0, STREAM_CAP - output[name].length);
      });
    }
    let stopped = false;
    const stop = () => {
      stopped = true;
      try {
        if (process.platform === 'win32') child.kill('SIGKILL');
        else process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    };
    signal?.addEventListener('abort', stop, { once: true });
    child.once('error', (error) => resolve({ exit: `not started: ${error.message}`, ...output }));
    child.once('close', (code, name) => {
      signal?.removeEventListener('abort', stop);
      resolve({ exit: name ?? code, ...output, ...(stopped ? { stoppedByHost: true } : {}) });
    });
  });
}
