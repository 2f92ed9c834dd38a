#!/usr/bin/env node
// The CLI is compiled from runner/cli.ts by `npm run build` (run automatically by `npm ci`/`npm install`).
// runCliProcess owns the exit status: an exit guard, fatal-error handlers and bounded exits.
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ENTRY = new URL('../dist/runner/cli-process.js', import.meta.url);

/** One line for a CLI that cannot load because it was never built or installed; undefined for any other error. */
function describeUnbuilt(error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND') return undefined;
  const missing = /^Cannot find (module|package) '([^']+)'/.exec(String(error.message));
  if (!missing) return undefined;
  if (missing[1] === 'package') return `the package ${missing[2]} is not installed: run \`npm ci\` (or \`npm install\`) in ${ROOT}`;
  return `the compiled CLI is missing or incomplete (${missing[2]} not found): run \`npm run build\` in ${ROOT}`;
}

let cli;
try {
  cli = await import(ENTRY.href);
} catch (error) {
  const problem = describeUnbuilt(error);
  if (problem === undefined) throw error;
  process.stderr.write(`mcp-error-matrix: ${problem}\n`);
  process.exitCode = 2;
}
if (cli) await cli.runCliProcess(process.argv.slice(2));
