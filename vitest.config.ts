import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { defineConfig } from 'vitest/config';
import { getSchemaCacheDir } from './runner/schema-check/schema-files.js';

// Tests never download schemas. They read the pinned copies from MCP_SCHEMAS_DIR, else from
// ../shared/mcp-spec (CI lays it beside the clone), else from the user cache that
// `npm run matrix` or `mcp-error-matrix schemas fetch` fills. Every load still checks the pins.
function findSchemasDir(): string | undefined {
  if (process.env.MCP_SCHEMAS_DIR) return process.env.MCP_SCHEMAS_DIR;
  const shared = resolve(import.meta.dirname, '../shared/mcp-spec');
  if (existsSync(shared)) return shared;
  const { commit } = JSON.parse(readFileSync(resolve(import.meta.dirname, 'schemas/pins.json'), 'utf8')) as { commit: string };
  const cached = join(getSchemaCacheDir(), commit);
  if (existsSync(join(cached, '2025-11-25', 'schema.json')) && existsSync(join(cached, '2026-07-28', 'schema.json'))) return cached;
  console.warn(
    'mcp-error-matrix tests: no pinned schemas found. Set MCP_SCHEMAS_DIR to a folder holding <version>/schema.json, ' +
      'or fill the cache once with `npm run matrix` or `npx mcp-error-matrix schemas fetch` (needs network).',
  );
  return undefined;
}

const schemasDir = findSchemasDir();

export default defineConfig({
  test: {
    include: ['runner/**/*.test.ts', 'reports/**/*.test.ts', 'test/**/*.test.ts'],
    // A crash inside the reference classifier throws instead of reading as INVALID_ENVELOPE
    // (runner/classify/reference.ts), so no test row passes on a crash.
    env: { ...(schemasDir ? { MCP_SCHEMAS_DIR: schemasDir } : {}), MCP_ERROR_MATRIX_RETHROW_CLASSIFIER_BUGS: '1' },
    // Most test files wait on sockets and child processes rather than the CPU: one worker more
    // than cores measured 73 s against 102 s for the whole suite on 2 cores, with no flaky test.
    maxWorkers: availableParallelism() + 1,
    minWorkers: 1,
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
