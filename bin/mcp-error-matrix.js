#!/usr/bin/env node
// The CLI is compiled from runner/cli/cli.ts by `npm run build` (run automatically by `npm ci`/`npm install`).
// runCliProcess owns the exit status: an exit guard, fatal-error handlers and bounded exits.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ENTRY = new URL('../dist/runner/cli/cli-process.js', import.meta.url);

/** A clone (or source checkout) has tsconfig.json; the installed package does not ship it. */
function isClone() {
  return existsSync(new URL('../tsconfig.json', import.meta.url));
}

/**
 * What to run when the compiled CLI is missing: in a clone, `npm ci` when the build tools are not
 * installed (`npm run build` would fail for want of tsc), else `npm run build`; an installed
 * package is incomplete: reinstall it.
 */
function describeBuildRemedy() {
  if (!isClone()) return 'this installed copy is incomplete: reinstall mcp-error-matrix';
  if (!existsSync(new URL('../node_modules/typescript/package.json', import.meta.url))) return `run \`npm ci\` in ${ROOT} (it installs the dependencies and builds)`;
  return `run \`npm run build\` in ${ROOT}`;
}

/** One line for a CLI that cannot load because it was never built or installed; undefined for any other error. */
function describeUnbuilt(error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND') return undefined;
  const missing = /^Cannot find (module|package) '([^']+)'/.exec(String(error.message));
  if (!missing) return undefined;
  if (missing[1] === 'package') {
    const remedy = isClone() ? `run \`npm ci\` (or \`npm install\`) in ${ROOT}` : 'reinstall mcp-error-matrix';
    return `the package ${missing[2]} is not installed: ${remedy}`;
  }
  return `the compiled CLI is missing or incomplete (${missing[2]} not found): ${describeBuildRemedy()}`;
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
