// The inputs a run read, for receipts: case files, schemas, the runner's own code (sources, the
// compiled dist/ with its generated case validator, bin/, worker scripts), target files (a
// classifier module and the local files it imports, a command's script, an SDK's package.json).
// Each input names the root it is recorded under, so a report verifies on another machine with
// `verify --root NAME=DIR`: "package" for everything shipped with this tool, else a root per source.
import { dirname, parse, relative, resolve, sep } from 'node:path';
import { glob } from 'tinyglobby';
import type { ReceiptRootOption } from '../../reports/receipts/index.js';
import type { LoadedCase } from '../cases/case-types.js';
import { getPackageRoot } from '../util/package-paths.js';
import type { LoadedSchema, UsedValidatorCode } from '../schema-check/index.js';
import type { Target } from '../vocabulary/types.js';
import { listLocalImports } from './list-local-imports.js';

export interface ReceiptInputEntry {
  kind: string;
  path: string;
  label?: string;
  /** The named root the input is recorded under (a key of RunInputs.roots). */
  root?: string;
}

export interface RunInputs {
  inputs: ReceiptInputEntry[];
  roots: Record<string, ReceiptRootOption>;
}

/** The root of every file shipped with (or installed beside) this tool; verify finds it itself. */
export const PACKAGE_ROOT: Record<'package', ReceiptRootOption> = {
  package: {
    dir: getPackageRoot(),
    what: 'the mcp-error-matrix package that ran: bundled cases, schemas, baselines, runner code and bundled clients; located by the verifying tool',
    recordLocation: false,
  },
};

/** The runner's own files, relative to the package root. */
export const RUNNER_FILES = [
  'bin/**',
  'dist/runner/**/*.js',
  'dist/runner/**/*.cjs', // the case validator `npm run build` generates
  'dist/runner/**/*.checked.json', // the bundled case files the build validated (cases/checked-cases.ts)
  'dist/reports/**/*.js',
  'runner/**/*.ts',
  'runner/**/*.mjs', // worker scripts: classifier isolation, SDK clients
  'reports/**/*.ts',
  'reports/html/templates/**',
  'package.json',
  'package-lock.json',
  'schemas/*.json',
];

/** Lists every input file of a run and the roots they are recorded under. */
export async function collectRunInputs(options: {
  cases: LoadedCase[];
  schemas: LoadedSchema[];
  /** The pinned validator code that judged the run (schema-check/validator-code.ts). */
  validatorCode?: (UsedValidatorCode & { version: string })[];
  targets: Target[];
  baseline?: string;
}): Promise<RunInputs> {
  const packageRoot = getPackageRoot();
  const roots: Record<string, ReceiptRootOption> = { ...PACKAGE_ROOT };
  const inPackage = (path: string) => isInside(packageRoot, path);
  /** Files outside the package go under a root named `name`: their deepest common folder. */
  const underRoot = (name: string, what: string, paths: string[]): string | undefined => {
    const outside = paths.filter((path) => !inPackage(path));
    if (outside.length === 0) return 'package';
    roots[name] = { dir: findCommonFolder(outside), what };
    return name;
  };

  const caseFiles = options.cases.map((item) => item.file);
  const casesRoot = underRoot('cases', 'the case files given with --cases', caseFiles);
  const schemaFiles = options.schemas.filter((schema) => !/^https?:/.test(schema.path)).map((schema) => schema.path);
  // The folder holding <version>/schema.json, as --schemas and MCP_SCHEMAS_DIR name it.
  const schemasRoot = underRoot('schemas', 'the pinned MCP schemas: a folder of <version>/schema.json (--schemas, MCP_SCHEMAS_DIR or the user cache)', schemaFiles.map(dirname));
  // Code that could not be cached (a read-only cache) has no file to hash; the pins still name it.
  const codes = (options.validatorCode ?? []).flatMap((code) => (code.path === undefined ? [] : [{ ...code, path: code.path }]));
  const codeRoot = codes.length > 0 ? underRoot('validator-code', 'the pinned standalone validator code that judged the schema checks (the user cache)', codes.map((code) => code.path)) : undefined;
  const baselineRoot = options.baseline ? underRoot('baseline', 'the folder of the --baseline file', [options.baseline]) : undefined;

  const targetInputs: ReceiptInputEntry[] = [];
  const taken = new Map<string, number>();
  for (const target of options.targets) {
    const { source, name, version, kind } = target.info;
    if (!source) continue;
    const label = version && !name.endsWith(`@${version}`) ? `${name}@${version}` : name;
    // A classifier module is hashed with the local files it imports; a command's script or
    // executable and an SDK's package.json are one file each.
    // (The built-in classifiers are part of the runner code, hashed below.)
    const imports = kind === 'classifier' && name.startsWith('classifier:') ? await listLocalImports(source) : { files: [source] };
    const count = (taken.get(kind) ?? 0) + 1;
    taken.set(kind, count);
    const rootName = underRoot(count === 1 ? kind : `${kind}-${count}`, describeTargetRoot(kind, name), imports.files);
    // A walk cut short says so in the module's label: the receipts then do not cover every import.
    const first = 'truncated' in imports && imports.truncated ? `${label} (imports not all covered: ${imports.truncated.slice(0, 300)})` : label;
    imports.files.forEach((path, index) => targetInputs.push({ kind: 'target', path, label: index === 0 ? first : `${label} (imported)`, ...(rootName ? { root: rootName } : {}) }));
  }

  const runnerFiles = await glob(RUNNER_FILES, { cwd: packageRoot, absolute: true, ignore: ['**/*.test.ts', '**/*.test.js', '**/__golden__/**'] });
  const inputs: ReceiptInputEntry[] = [
    ...options.cases.map((item) => ({ kind: 'case', path: item.file, label: item.case.id, ...(casesRoot ? { root: casesRoot } : {}) })),
    ...options.schemas
      .filter((schema) => !/^https?:/.test(schema.path))
      .map((schema) => ({ kind: 'schema', path: schema.path, label: `${schema.version} (pin ${schema.sha256.slice(0, 12)})`, ...(schemasRoot ? { root: schemasRoot } : {}) })),
    ...codes.map((code) => ({ kind: 'validator-code', path: code.path, label: `${code.version} ${code.definition} (pin ${code.sha256.slice(0, 12)})`, ...(codeRoot ? { root: codeRoot } : {}) })),
    ...(options.baseline ? [{ kind: 'baseline', path: options.baseline, ...(baselineRoot ? { root: baselineRoot } : {}) }] : []),
    ...targetInputs,
    ...runnerFiles.sort().map((path) => ({ kind: 'runner', path, root: 'package' })),
  ];
  return { inputs, roots };
}

function describeTargetRoot(kind: string, name: string): string {
  const what = kind === 'classifier' ? 'the folder of the classifier module and the files it imports' : kind === 'command' ? "the folder of the command client's script or executable" : 'the folder of the installed client package';
  return `${what}, for --target ${name.slice(0, 200)}`;
}

function isInside(dir: string, path: string): boolean {
  const rel = relative(dir, resolve(path));
  return rel !== '' && !rel.startsWith('..') && !parse(rel).root;
}

/** The deepest folder holding every path. */
export function findCommonFolder(paths: string[]): string {
  const split = paths.map((path) => dirname(resolve(path)).split(sep));
  const common: string[] = [];
  for (let i = 0; split.every((parts) => i < parts.length && parts[i] === split[0]![i]); i++) common.push(split[0]![i]!);
  return common.length <= 1 ? sep : common.join(sep);
}
