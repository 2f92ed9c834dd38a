// Adapter for `cloudflare-agents@<version>`: the MCP client of Cloudflare's `agents` package
// (MCPClientManager, `agent.mcp`), in the runtime it is written for. The manager is a Durable Object
// capability: it keeps its servers in the Agent's SQLite storage and the package root imports
// `cloudflare:workers`, so it does not run in Node (docs/targets.md § Client stacks). The worker therefore
// bundles a small host application (cloudflare-agents-host.mjs) with the installed package and serves
// it with workerd, Cloudflare's open-source Workers runtime (the `workerd` package, as `wrangler dev`
// does), one workerd per version; each cell is one request to it, run by a fresh Agent.
// Loaded by ../worker.mjs.
//
// workerd runs behind a small POSIX shell watchdog that stops it when this worker's stdin pipe to
// the shell closes, so a worker that dies (even by SIGKILL) leaves no workerd behind; when workerd
// itself exits, the worker exits too and its cells are reported as errors (the runner restarts it).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findPackageDir, readPackageVersion } from './find-package.mjs';

const HOST_MODULE = fileURLToPath(new URL('./cloudflare-agents-host.mjs', import.meta.url));
/** How long workerd may take to start serving before the worker gives up. */
const START_LIMIT_MS = 60_000;
const STDERR_CAP = 8192;

/** The versions are probed: the manager's v2 client negotiates ("auto") over whatever it speaks. */
export async function load(dir, pkg) {
  const requireFrom = createRequire(join(dir, 'package.json'));
  const workerd = loadCompanion(requireFrom, 'workerd', pkg);
  const esbuild = loadCompanion(requireFrom, 'esbuild', pkg);
  const clientDir = findPackageDir(dir, '@modelcontextprotocol/client');
  const root = mkdtempSync(join(tmpdir(), 'mem-cloudflare-agents-'));
  process.once('exit', () => rmSync(root, { recursive: true, force: true }));
  await bundleHost(esbuild, { dir, outfile: join(root, 'worker.js') });
  mkdirSync(join(root, 'do-store'));
  writeFileSync(join(root, 'config.capnp'), renderConfig({ storeDir: join(root, 'do-store'), compatibilityDate: workerd.compatibilityDate }));
  const runtime = await startWorkerd(workerd.default, root);
  return {
    versions: 'probe',
    builtOn: `@modelcontextprotocol/client ${readPackageVersion(clientDir)}, workerd ${workerd.version}`,
    runCell: (cell) => runCell(runtime, cell),
  };
}

// workerd and esbuild are not dependencies of `agents`: the project pins them beside it (devDependencies),
// and an install into the cache brings them along (SDK_KINDS companions).
function loadCompanion(requireFrom, name, pkg) {
  try {
    return requireFrom(name);
  } catch (error) {
    throw new Error(`agents ${pkg.version} needs ${name} installed beside it to run in the Workers runtime (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`);
  }
}

/** One ESM Worker script: the host module, the package and its dependencies, as wrangler bundles a Worker. */
async function bundleHost(esbuild, { dir, outfile }) {
  const builtins = new Set(builtinModules);
  // Node built-ins are the runtime's (nodejs_compat); a CommonJS require() of one becomes an import.
  const nodeBuiltins = {
    name: 'node-builtins',
    setup(build) {
      build.onResolve({ filter: /^(node:)?[a-z_/]+$/ }, (args) => {
        const name = args.path.replace(/^node:/, '');
        if (!builtins.has(name)) return undefined;
        if (args.kind === 'require-call') return { path: name, namespace: 'node-require' };
        return { path: `node:${name}`, external: true };
      });
      build.onLoad({ filter: /.*/, namespace: 'node-require' }, (args) => ({ contents: `import * as m from 'node:${args.path}'; export default m;`, loader: 'js' }));
    },
  };
  // The host's two imports: the package this worker was started for (under an alias name in a clone),
  // and the MCP client that package imports (for its error classes: one module instance), resolved as
  // a package import from where each is installed.
  const hostImports = {
    name: 'host-imports',
    setup(build) {
      build.onResolve({ filter: /^(agents|@modelcontextprotocol\/client)$/ }, (args) => {
        if (args.importer !== HOST_MODULE) return undefined;
        if (args.path === 'agents') return build.resolve(basename(dir), { kind: args.kind, resolveDir: dirname(dirname(dir)) });
        return build.resolve(args.path, { kind: args.kind, resolveDir: dir });
      });
    },
  };
  await esbuild.build({
    entryPoints: [HOST_MODULE],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    outfile,
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['module', 'main'],
    external: ['cloudflare:*'],
    plugins: [nodeBuiltins, hostImports],
    logLevel: 'error',
  });
}

// The email module the package imports is backed by the platform; local runtimes supply it as an
// extension (Miniflare does the same). The MCP client never sends email: using it throws.
const EMAIL_EXTENSION = "class EmailMessage { constructor() { throw new Error('email is not available in this host'); } } export default { EmailMessage };";

function renderConfig({ storeDir, compatibilityDate }) {
  return `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = .host),
    (name = "do-store", disk = (path = ${JSON.stringify(storeDir)}, writable = true)),
    (name = "internet", network = (allow = ["public", "private", "local"])),
  ],
  extensions = [ ( modules = [ ( name = "cloudflare-internal:email", internal = true, esModule = ${JSON.stringify(EMAIL_EXTENSION)} ) ] ) ],
  sockets = [ (name = "http", address = "127.0.0.1:0", http = (), service = "main") ],
);
const host :Workerd.Worker = (
  modules = [ (name = "worker.js", esModule = embed "worker.js") ],
  compatibilityDate = ${JSON.stringify(compatibilityDate)},
  compatibilityFlags = ["nodejs_compat"],
  durableObjectNamespaces = [ (className = "MatrixAgent", uniqueKey = "mcp-error-matrix-agent", enableSql = true) ],
  durableObjectStorage = (localDisk = "do-store"),
  bindings = [ (name = "MatrixAgent", durableObjectNamespace = "MatrixAgent") ],
);
`;
}

// The shell keeps its stdin (our pipe) on fd 4, runs workerd with the control fd 3, and stops
// workerd when that pipe closes; it exits with workerd.
const WATCHDOG = 'exec 4<&0; "$0" "$@" 0</dev/null & pid=$!; exec 3>&-; { read _ <&4; kill $pid 2>/dev/null; } & reader=$!; wait $pid; status=$?; kill $reader 2>/dev/null; exit $status';

/** Starts workerd on the config in `root`; resolves with its port once it listens. */
function startWorkerd(binary, root) {
  const args = ['serve', join(root, 'config.capnp'), '--control-fd=3'];
  const stdio = ['pipe', 'ignore', 'pipe', 'pipe'];
  const child = process.platform === 'win32' ? spawn(binary, args, { cwd: root, stdio }) : spawn('sh', ['-c', WATCHDOG, binary, ...args], { cwd: root, stdio });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-STDERR_CAP);
  });
  child.stdin.on('error', () => {});
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`workerd did not start serving within ${START_LIMIT_MS} ms: ${stderr.trim().slice(-500)}`)), START_LIMIT_MS);
    let control = '';
    child.stdio[3].setEncoding('utf8');
    child.stdio[3].on('data', (chunk) => {
      control += chunk;
      const port = /"socket":"http","port":(\d+)/.exec(control)?.[1];
      if (port === undefined) return;
      clearTimeout(timer);
      resolve({ url: `http://127.0.0.1:${port}/`, stderr: () => stderr });
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      const why = `workerd exited (${signal ?? `code ${code}`}): ${stderr.trim().slice(-1500)}`;
      reject(new Error(why));
      // Its cells cannot be answered any more: the runner restarts this worker for the next cell.
      console.error(`cloudflare-agents: ${why}`);
      process.exit(70);
    });
  });
}

async function runCell(runtime, cell) {
  const started = performance.now();
  try {
    const response = await fetch(runtime.url, { method: 'POST', body: JSON.stringify(cell), headers: { 'content-type': 'application/json' } });
    const text = await response.text();
    if (!response.ok) return { id: cell.id, error: `the Workers host answered HTTP ${response.status}: ${text.slice(0, 500)}`, notes: stderrNotes(runtime), durationMs: elapsed(started) };
    return { ...JSON.parse(text), id: cell.id };
  } catch (error) {
    return { id: cell.id, error: `the Workers host failed: ${error instanceof Error ? error.message : String(error)}`, notes: stderrNotes(runtime), durationMs: elapsed(started) };
  }
}

function stderrNotes(runtime) {
  const text = runtime.stderr().trim();
  return text ? [`workerd stderr: ${text.slice(-1500)}`] : [];
}

function elapsed(started) {
  return Math.round(performance.now() - started);
}
