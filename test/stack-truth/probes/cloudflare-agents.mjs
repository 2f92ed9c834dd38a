// Probe of `cloudflare-agents@<version>` (the MCP client of Cloudflare's `agents` package) used as a
// Workers application uses it. The client is a Durable Object capability and the package imports
// `cloudflare:workers`, so it runs only in the Workers runtime: the probe builds its application
// (cloudflare-agents-app.mjs) into one Worker script with esbuild and serves it with workerd, as
// `wrangler dev` does, then drives it over HTTP. The observation of each call is made inside the
// runtime with the corpus's observe-call.mjs and comes back as JSON; the session therefore offers
// `observe(args, signal)` (a ready CallObservation, which probe-host.mjs passes on) where other probes
// offer `call`.
//
// The library's own deadline is the v2 client's default request timeout (60 s): `execute` passes no
// options and ignores the AI SDK's abortSignal. A call the probe host gives up on before the runtime
// answers is `hung`. No adapter code: the bundling and the runtime's configuration are the
// application's build, written here.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findInstalled } from './installed.mjs';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const APP = fileURLToPath(new URL('./cloudflare-agents-app.mjs', import.meta.url));
const START_LIMIT_MS = 60_000;

export async function load(alias) {
  // The package exports no ./package.json: found from its entry point.
  const installed = findInstalled(alias);
  const packageDir = join(REPO_ROOT, installed.dir);
  const client = findInstalled('@modelcontextprotocol/client', installed.url);
  const requireHere = createRequire(import.meta.url);
  const esbuild = requireHere('esbuild');
  const workerd = requireHere('workerd');
  const root = mkdtempSync(join(tmpdir(), 'stack-truth-cloudflare-agents-'));
  process.once('exit', () => rmSync(root, { recursive: true, force: true }));
  await bundle(esbuild, alias, packageDir, join(root, 'worker.js'));
  mkdirSync(join(root, 'store'));
  writeFileSync(join(root, 'config.capnp'), renderConfig(join(root, 'store'), workerd.compatibilityDate));
  const base = await startWorkerd(workerd.default, root);
  let sessions = 0;
  const post = async (op, body, signal) => {
    const response = await fetch(new URL(op, base), { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' }, signal });
    const text = await response.text();
    if (!response.ok) throw new Error(`the Worker answered HTTP ${response.status}: ${text.slice(0, 500)}`);
    return JSON.parse(text);
  };
  return {
    package: { name: installed.name, dir: installed.dir },
    version: installed.version,
    // The SDK under the package, as the other probes name it (the stale check reads its folder).
    builtOn: { name: client.name, version: client.version, dir: client.dir },
    errorModules: [],
    async open({ url, tool }) {
      const session = `probe-${process.pid}-${++sessions}`;
      const opened = await post('open', { session, url, tool });
      if (opened.openFailed) throw Object.assign(new Error(`open failed in the Worker: ${opened.openFailed.class}: ${opened.openFailed.message}`), { observed: opened.openFailed });
      return {
        async observe(args, signal) {
          const started = performance.now();
          try {
            return (await post('call', { session, arguments: args }, signal)).call;
          } catch (error) {
            if (signal?.aborted) return { hung: { afterMs: Math.round(performance.now() - started) } };
            throw error;
          }
        },
        close: () => post('close', { session }),
      };
    },
  };
}

/** One ESM Worker script, as wrangler bundles one: Node built-ins are the runtime's (nodejs_compat). */
async function bundle(esbuild, alias, packageDir, outfile) {
  const builtins = new Set(builtinModules);
  const plugin = {
    name: 'probe-app',
    setup(build) {
      build.onResolve({ filter: /^(agents|@modelcontextprotocol\/client)$/ }, (args) => {
        if (args.importer !== APP) return undefined;
        // `agents` is the version under test (an alias folder); the client is the one it imports.
        if (args.path === 'agents') return build.resolve(alias, { kind: args.kind, resolveDir: dirname(dirname(packageDir)) });
        return build.resolve(args.path, { kind: args.kind, resolveDir: packageDir });
      });
      build.onResolve({ filter: /^(node:)?[a-z_/]+$/ }, (args) => {
        const name = args.path.replace(/^node:/, '');
        if (!builtins.has(name)) return undefined;
        if (args.kind === 'require-call') return { path: name, namespace: 'node-require' };
        return { path: `node:${name}`, external: true };
      });
      build.onLoad({ filter: /.*/, namespace: 'node-require' }, (args) => ({ contents: `import * as m from 'node:${args.path}'; export default m;`, loader: 'js' }));
    },
  };
  await esbuild.build({
    entryPoints: [APP],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    outfile,
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['module', 'main'],
    external: ['cloudflare:*'],
    plugins: [plugin],
    logLevel: 'error',
  });
}

function renderConfig(storeDir, compatibilityDate) {
  // The email module the package imports is the platform's; local runtimes supply it as an extension.
  const email = "class EmailMessage { constructor() { throw new Error('no email here'); } } export default { EmailMessage };";
  return `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = .app),
    (name = "store", disk = (path = ${JSON.stringify(storeDir)}, writable = true)),
    (name = "internet", network = (allow = ["public", "private", "local"])),
  ],
  extensions = [ ( modules = [ ( name = "cloudflare-internal:email", internal = true, esModule = ${JSON.stringify(email)} ) ] ) ],
  sockets = [ (name = "http", address = "127.0.0.1:0", http = (), service = "main") ],
);
const app :Workerd.Worker = (
  modules = [ (name = "worker.js", esModule = embed "worker.js") ],
  compatibilityDate = ${JSON.stringify(compatibilityDate)},
  compatibilityFlags = ["nodejs_compat"],
  durableObjectNamespaces = [ (className = "ProbeAgent", uniqueKey = "stack-truth-probe", enableSql = true) ],
  durableObjectStorage = (localDisk = "store"),
  bindings = [ (name = "ProbeAgent", durableObjectNamespace = "ProbeAgent") ],
);
`;
}

/** Starts workerd (stopped when the probe process exits); resolves with its base URL once it listens. */
function startWorkerd(binary, root) {
  const child = spawn(binary, ['serve', join(root, 'config.capnp'), '--control-fd=3'], { cwd: root, stdio: ['ignore', 'ignore', 'pipe', 'pipe'] });
  process.once('exit', () => child.kill('SIGKILL'));
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-4000);
    process.stderr.write(chunk);
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`workerd did not listen within ${START_LIMIT_MS} ms: ${stderr.slice(-500)}`)), START_LIMIT_MS);
    let control = '';
    child.stdio[3].setEncoding('utf8');
    child.stdio[3].on('data', (chunk) => {
      control += chunk;
      const port = /"socket":"http","port":(\d+)/.exec(control)?.[1];
      if (port === undefined) return;
      clearTimeout(timer);
      resolve(`http://127.0.0.1:${port}/`);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`workerd exited (${signal ?? `code ${code}`}): ${stderr.slice(-1500)}`));
    });
  });
}
