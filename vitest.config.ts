import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

// Tests never download schemas: they read the pinned copies beside the checkout
// (CI lays ../shared next to the clone) unless MCP_SCHEMAS_DIR says otherwise.
const sharedSchemas = resolve(import.meta.dirname, '../shared/mcp-spec');
const schemasDir = process.env.MCP_SCHEMAS_DIR ?? (existsSync(sharedSchemas) ? sharedSchemas : undefined);

export default defineConfig({
  test: {
    include: ['runner/**/*.test.ts', 'reports/**/*.test.ts', 'test/**/*.test.ts'],
    env: schemasDir ? { MCP_SCHEMAS_DIR: schemasDir } : {},
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
