#!/usr/bin/env node
// The CLI is compiled from runner/cli.ts by `npm run build` (run automatically by `npm ci`/`npm install`).
import { main } from '../dist/runner/cli.js';

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  // Input errors are handled inside main(); anything here is a bug in mcp-error-matrix itself.
  const detail = process.env.MEM_DEBUG ? (error?.stack ?? String(error)) : String(error?.message ?? error);
  process.stderr.write(`mcp-error-matrix: internal error: ${detail}\n(set MEM_DEBUG=1 for the stack trace, and please report it)\n`);
  process.exitCode = 1;
}
