#!/usr/bin/env node
// The CLI is compiled from runner/cli.ts by `npm run build` (run automatically by `npm ci`/`npm install`).
// runCliProcess owns the exit status: an exit guard, fatal-error handlers and bounded exits.
import { runCliProcess } from '../dist/runner/cli-process.js';

await runCliProcess(process.argv.slice(2));
