#!/usr/bin/env node
// The CLI is compiled from runner/cli.ts by `npm run build` (run automatically by `npm ci`/`npm install`).
import { main } from '../dist/runner/cli.js';

process.exitCode = await main(process.argv.slice(2));
