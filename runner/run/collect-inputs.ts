// The inputs a run read, for receipts: case files, schemas, the runner's own code, target files.
import { glob } from 'tinyglobby';
import type { LoadedCase } from '../cases/case-types.js';
import { getPackageRoot } from '../package-paths.js';
import type { LoadedSchema } from '../schema-check/index.js';
import type { Target } from '../types.js';

export interface ReceiptInputEntry {
  kind: string;
  path: string;
  label?: string;
}

/** Lists every input file of a run. */
export async function collectRunInputs(options: { cases: LoadedCase[]; schemas: LoadedSchema[]; targets: Target[]; baseline?: string }): Promise<ReceiptInputEntry[]> {
  const root = getPackageRoot();
  const runnerFiles = await glob(['dist/runner/**/*.js', 'dist/reports/**/*.js', 'runner/**/*.ts', 'reports/**/*.ts', 'reports/templates/**', 'package.json', 'package-lock.json', 'schemas/*.json'], {
    cwd: root,
    absolute: true,
    ignore: ['**/*.test.ts', '**/__golden__/**'],
  });
  return [
    ...options.cases.map((item) => ({ kind: 'case', path: item.file, label: item.case.id })),
    ...options.schemas.filter((schema) => !/^https?:/.test(schema.path)).map((schema) => ({ kind: 'schema', path: schema.path, label: `${schema.version} (pin ${schema.sha256.slice(0, 12)})` })),
    ...(options.baseline ? [{ kind: 'baseline', path: options.baseline }] : []),
    ...options.targets.flatMap((target) =>
      target.info.source ? [{ kind: 'target', path: target.info.source, label: `${target.info.name}${target.info.version ? `@${target.info.version}` : ''}` }] : [],
    ),
    ...runnerFiles.sort().map((path) => ({ kind: 'runner', path })),
  ];
}
