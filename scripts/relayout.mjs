#!/usr/bin/env node
// Issue 31's layout, as one re-appliable step: reports/ by concern, runner/'s loose root modules
// grouped by role. Run at the root of a clean checkout: `node scripts/relayout.mjs` (add
// `--dry-run` to print the plan and change nothing). It
//   1. places every file at reports/ root, reports/__golden__/ and runner/ root from the map
//      below, and stops before changing anything (exit 2, one line a file) when a file there is
//      placed by no entry: add it to MODULES, EXTRA or STAYS and run it again;
//   2. moves each file with `git mv`, so history follows;
//   3. rewrites every relative specifier or path (string literals in .ts/.mts/.mjs/.js/.cjs:
//      imports, import(), new URL(..., import.meta.url), vi.mock, template-literal prefixes,
//      also the ones that reach the compiled twin in dist/) that points at a moved file, or
//      that a moved file holds;
//   4. rewrites repository-relative paths (`reports/junit.ts`, `dist/runner/cli.js`,
//      `reports/templates`) in every tracked text file: configs, package.json, action.yml,
//      bench/, bin/, scripts/, tests, docs and the README; golden files are never edited (it
//      stops when one names a moved path);
//   5. makes each reports/<concern>/index.ts, the concern's public surface: the names that code
//      outside the folder imports from it, re-exported, and points those imports at it;
//   6. applies the few edits no path rule can make (EDITS: each one must find its old text).
// A second run finds the layout applied and exits 0 changing nothing; a half-applied tree is
// refused (exit 1).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';

const DRY_RUN = process.argv.includes('--dry-run');

// ---- The map -------------------------------------------------------------------------------
/**
 * Modules by their new folder: `stem` is a module at the root of the folder the destination
 * belongs to (reports/ or runner/), `from/stem` a module elsewhere. A module's tests go with it:
 * `<stem>.test.ts` and `<stem>-<anything>.test.ts` (the longest stem wins).
 */
const MODULES = {
  // What every format reads: the cells' source, counts, unsafe cells, mismatches, case and spec words.
  'reports/model': ['report-source', 'compare-types', 'count-failures', 'unsafe-cells', 'describe-mismatch', 'case-info', 'spec-references', 'schema-notice'],
  // The text formats, one module each: TAP, results.json (+ its evidence), summary.json, JUnit, Markdown.
  'reports/formats': ['tap', 'yaml-plain', 'json', 'json-full', 'summary-json', 'junit', 'markdown'],
  // matrix.html: the page, its view model, grid, details, templates and the build step that precompiles them.
  'reports/html': ['html', 'html-details', 'html-details-text', 'html-grid', 'html-json-script', 'html-target-bars', 'html-templates', 'html-view-model', 'status-style', 'spilled-parts', 'runner/build-html-templates'],
  // Versions of one client side by side, in the HTML page and in summary.md.
  'reports/trend': ['trend-view-model', 'trend-html', 'trend-markdown'],
  // receipts.json: hashing, signing, verifying.
  'reports/receipts': ['receipts', 'sign-receipts', 'verify', 'verify-signature', 'locate-receipt-roots'],
  // What no report may carry: secrets and control characters.
  'reports/redaction': ['redact', 'redact-text', 'redact-result', 'strip-control'],
  // Whether --out may be used, the lock, the marker, the atomic write and its recovery.
  'reports/report-folder': ['check-report-folder', 'folder-lock', 'recover-report-folder', 'report-marker', 'write', 'describe-fs-error', 'read-small-file', 'find-foreign-entries', 'hold-report-folder'],
  // The command line: argv, flags, options, the process and its streams.
  'runner/cli': ['cli', 'cli-io', 'cli-process', 'cli-invocation', 'command-flags', 'options'],
  // The words every stage shares: result and recording types, vocabulary, what each protocol version has.
  'runner/vocabulary': ['types', 'recording-types', 'vocabulary', 'version-features'],
  // Small utilities with no stage of their own.
  'runner/util': ['errors', 'safe-copy', 'deep-freeze', 'lazy-yaml', 'package-paths'],
  // The event loop's stalls are what starvation measures.
  'runner/starvation': ['loop-stall'],
};

/** Files placed one by one (tests named after no module, goldens, whole folders). */
const EXTRA = {
  'reports/adapter-gap-reports.test.ts': 'reports/formats/adapter-gap-reports.test.ts',
  'reports/matrix-client.test.ts': 'reports/html/matrix-client.test.ts',
  'runner/default-concurrency.test.ts': 'runner/cli/default-concurrency.test.ts',
  'reports/__golden__/junit.xml': 'reports/formats/__golden__/junit.xml',
  'reports/__golden__/summary.md': 'reports/formats/__golden__/summary.md',
  'reports/__golden__/matrix-markup.html': 'reports/html/__golden__/matrix-markup.html',
  'reports/templates/': 'reports/html/templates/',
};

/** Files that stay where they are: the stages' public entry points and the tests of the whole stage. */
const STAYS = [
  'reports/index.ts', // the report formats by name: the report stage's public surface
  'reports/write-run-reports.ts', // writes a run's reports and receipts into the report folder
  'reports/report-bytes.test.ts', // every format's bytes against reviewed digests
  'reports/escaping.test.ts', // hostile text in every format
  'reports/__golden__/report-digests-10k.txt',
  'reports/__golden__/report-digests-small.txt',
  'runner/index.ts', // the package's API
  'runner/vitest.ts', // the vitest entry point
];

/** Edits a path rule cannot make, made before the rules (old path, old text); each must find `from` exactly once. */
const EDITS = [
  {
    file: 'runner/build-html-templates.ts',
    from: "join(dirname(fileURLToPath(import.meta.url)), '..', 'reports')",
    to: 'dirname(fileURLToPath(import.meta.url))',
  },
  {
    file: 'runner/build-html-templates.ts',
    from: '(default: the compiled reports/ folder)',
    to: '(default: the compiled reports/html/ folder, beside html-templates.js)',
  },
  // A fake dist/ built from path segments: the compiled CLI entry is now dist/runner/cli/.
  { file: 'test/bin-unbuilt.test.ts', from: "mkdirSync(join(root, 'dist', 'runner'), { recursive: true });", to: "mkdirSync(join(root, 'dist', 'runner', 'cli'), { recursive: true });" },
  { file: 'test/bin-unbuilt.test.ts', from: "writeFileSync(join(root, 'dist', 'runner', file), text);", to: "writeFileSync(join(root, 'dist', 'runner', 'cli', file), text);" },
  { file: 'test/bin-unbuilt.test.ts', from: 'dist\\/runner\\/cli\\.js not found', to: 'dist\\/runner\\/cli\\/cli\\.js not found' },
];

/** Folders whose root (and reports/__golden__) must hold only placed files. */
const CHECKED_ROOTS = ['reports', 'runner', 'reports/__golden__'];
/** The concern folders that get an index.ts public surface. */
const SURFACE_FOLDERS = Object.keys(MODULES).filter((dir) => dir.startsWith('reports/'));

const CODE = /\.(ts|mts|cts|mjs|js|cjs)$/;
const TEXT = /\.(ts|mts|cts|mjs|js|cjs|json|md|ya?ml|hbs|css|html|txt)$|^\.ci\/|(^|\/)SOURCE$/;

// ---- helpers -------------------------------------------------------------------------------
const git = (...args) => execFileSync('git', args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
const fail = (code, lines) => {
  for (const line of lines) process.stderr.write(`${line}\n`);
  process.exit(code);
};
const stemOf = (path) => posix.basename(path).replace(/\.(test\.)?(ts|mts|mjs|js)$/, '');
const isTest = (path) => /\.test\.(ts|mts|mjs|js)$/.test(path);

// ---- 0. where we are -----------------------------------------------------------------------
if (!existsSync('package.json') || JSON.parse(readFileSync('package.json', 'utf8')).name !== 'mcp-error-matrix') {
  fail(1, ['relayout: run me at the root of an mcp-error-matrix checkout']);
}
const tracked = git('ls-files', '-z').split('\0').filter(Boolean);
const trackedSet = new Set(tracked);

// ---- 1. the plan ---------------------------------------------------------------------------
/** old path -> new path, for every file that moves. */
const moves = new Map();
const missing = [];
const stems = []; // { stem, root, dest }
for (const [dest, entries] of Object.entries(MODULES)) {
  const root = dest.split('/')[0];
  for (const entry of entries) {
    const [from, stem] = entry.includes('/') ? [dirname(entry), posix.basename(entry)] : [root, entry];
    stems.push({ stem, from, dest });
    const source = ['.ts', '.mts', '.mjs'].map((ext) => `${from}/${stem}${ext}`).find((p) => trackedSet.has(p));
    if (source) moves.set(source, `${dest}/${posix.basename(source)}`);
    else missing.push(`${from}/${stem}.ts`);
  }
}
for (const [from, to] of Object.entries(EXTRA)) {
  if (from.endsWith('/')) {
    const inside = tracked.filter((p) => p.startsWith(from));
    if (inside.length === 0) missing.push(from);
    for (const p of inside) moves.set(p, to + p.slice(from.length));
  } else if (trackedSet.has(from)) moves.set(from, to);
  else missing.push(from);
}
// Tests beside their modules.
for (const path of tracked) {
  if (!isTest(path) || moves.has(path)) continue;
  const dir = dirname(path);
  const name = stemOf(path);
  const owner = stems
    .filter((s) => s.from === dir && (name === s.stem || name.startsWith(`${s.stem}-`)))
    .sort((a, b) => b.stem.length - a.stem.length)[0];
  if (owner) moves.set(path, `${owner.dest}/${posix.basename(path)}`);
}

// Already applied, or half applied?
const atNewPlace = stems.filter(({ stem, from, dest }) => dest !== from && ['.ts', '.mts', '.mjs'].some((ext) => trackedSet.has(`${dest}/${stem}${ext}`)));
if (moves.size === 0 && atNewPlace.length > 0) {
  process.stdout.write('relayout: the layout is already applied (no file of the map is at its old place); nothing to do\n');
  process.exit(0);
}
if (atNewPlace.length > 0) {
  fail(1, ['relayout: this tree is half laid out (files of the map at both their old and new places); refusing.', ...atNewPlace.map(({ stem, dest }) => `  already moved: ${dest}/${stem}`)]);
}
if (git('status', '--porcelain').trim() !== '') fail(1, ['relayout: the working tree has changes; commit or stash them first (the move must be one reviewable commit)']);

// Every file at a checked root is placed.
const unplaced = tracked.filter((p) => CHECKED_ROOTS.includes(dirname(p)) && !moves.has(p) && !STAYS.includes(p));
if (unplaced.length > 0) {
  fail(2, [
    `relayout: ${unplaced.length} file(s) at reports/, reports/__golden__/ or runner/ root are placed by no entry of the map; nothing was changed.`,
    'Add each to MODULES (a module: its tests follow it), EXTRA (one file) or STAYS in scripts/relayout.mjs, then run it again:',
    ...unplaced.map((p) => `  unplaced: ${p}`),
  ]);
}
for (const [from, to] of moves) if (trackedSet.has(to)) fail(1, [`relayout: ${from} would move onto ${to}, which exists`]);

// ---- 2. path resolution helpers ------------------------------------------------------------
const dirSet = new Set();
for (const p of tracked) for (let d = dirname(p); d !== '.'; d = dirname(d)) dirSet.add(d);
const newOf = (path) => moves.get(path) ?? path;
/** A tracked file or folder (old layout) that a resolved path names, or undefined. */
function findOld(path) {
  const bare = path.replace(/\/$/, '');
  if (trackedSet.has(bare)) return { path: bare, ext: '' };
  for (const [js, ts] of [['.js', '.ts'], ['.js', '.mts'], ['.mjs', '.mts'], ['.d.ts', '.ts']]) {
    if (bare.endsWith(js) && trackedSet.has(bare.slice(0, -js.length) + ts)) return { path: bare.slice(0, -js.length) + ts, ext: js, srcExt: ts };
  }
  if (dirSet.has(bare)) return { path: bare, dir: true };
  return undefined;
}
/** Where a folder goes: the common new folder of everything in it, when all of it moves together. */
function newDirOf(dir) {
  const inside = tracked.filter((p) => p.startsWith(`${dir}/`));
  const dests = new Set(inside.map((p) => {
    const to = newOf(p);
    const rest = p.slice(dir.length);
    return to.endsWith(rest) ? to.slice(0, -rest.length) : null;
  }));
  return dests.size === 1 && !dests.has(null) ? [...dests][0] : dir;
}
function newPathOf(found) {
  if (found.dir) return newDirOf(found.path);
  const to = newOf(found.path);
  return found.srcExt ? to.slice(0, -found.srcExt.length) + found.ext : to;
}
const inRepo = (p) => p !== '..' && !p.startsWith('../') && !posix.isAbsolute(p);
function relative(fromDir, to, trailingSlash) {
  let rel = posix.relative(fromDir, to) || '.';
  if (!rel.startsWith('.')) rel = `./${rel}`;
  return trailingSlash && !rel.endsWith('/') ? `${rel}/` : rel;
}
const warnings = [];

/** The new form of a relative specifier `spec` written in the file `file` (old path). */
function rewriteSpecifier(file, spec) {
  const trailing = spec.endsWith('/');
  const movedFile = moves.has(file);
  const fileDir = dirname(file);
  const newFileDir = dirname(newOf(file));
  const bases = [
    { from: fileDir, to: newFileDir },
    // The compiled twin: dist/<dir>/x.js reaching a file of the package by a dist-relative path.
    ...(/^(runner|reports)\//.test(file) ? [{ from: `dist/${fileDir}`, to: `dist/${newFileDir}` }] : []),
  ];
  for (const base of bases) {
    const resolved = posix.normalize(posix.join(base.from, spec));
    if (!inRepo(resolved)) continue;
    const distRef = resolved.startsWith('dist/');
    const found = findOld(distRef ? resolved.slice(5) : resolved) ?? (distRef ? undefined : undefined);
    if (!found) continue;
    const target = (distRef ? 'dist/' : '') + newPathOf(found);
    const targetOld = (distRef ? 'dist/' : '') + (found.srcExt ? found.path.slice(0, -found.srcExt.length) + found.ext : found.path);
    if (!movedFile && target === targetOld) return spec;
    const next = relative(base.to, target, trailing);
    return next === spec ? spec : next;
  }
  if (movedFile && spec !== '.' && spec !== '..' && spec !== './' && spec !== '../') warnings.push(`${file}: '${spec}' names no file of the repository; left as it is`);
  return spec;
}

// ---- 3. rewrite relative specifiers in code ------------------------------------------------
const STRING = /(['"])((?:\.\.?\/|\.\.?(?=\1))[^'"\n]*)\1|`((?:\.\.?\/)[^`$\n]*)(\$\{|`)/g;
// A folder reached by path segments from the module's own folder (`resolve(import.meta.dirname, '..')`):
// as many '..' as the new depth needs to reach the same folder.
const HERE = /(import\.meta\.dirname|dirname\(fileURLToPath\(import\.meta\.url\)\))((?:\s*,\s*'\.\.')+)/g;
function rewriteSegments(file, text) {
  if (!moves.has(file)) return text;
  return text.replace(HERE, (whole, here, ups) => {
    const count = ups.split("'..'").length - 1;
    const target = posix.normalize(posix.join(dirname(file), ...Array(count).fill('..')));
    const rel = posix.relative(dirname(newOf(file)), target);
    if (rel !== '' && !rel.split('/').every((part) => part === '..')) {
      warnings.push(`${file}: ${whole} reaches ${target}, not an ancestor of the new place; left as it is`);
      return whole;
    }
    const next = rel === '' ? 0 : rel.split('/').length;
    return `${here}${Array(next).fill(", '..'").join('')}`;
  });
}
function rewriteCode(file, text) {
  text = rewriteSegments(file, text);
  return text.replace(STRING, (whole, quote, spec, tplPrefix, tplNext) => {
    if (spec !== undefined) return `${quote}${rewriteSpecifier(file, spec)}${quote}`;
    return `\`${rewriteSpecifier(file, tplPrefix)}${tplNext}`;
  });
}

// ---- 4. rewrite repository-relative paths in every text file -------------------------------
const replacements = [];
for (const [from, to] of moves) {
  const m = /^(.*)\.(ts|mts|mjs)$/.exec(from);
  if (m && !isTest(from)) {
    const toStem = to.replace(/\.(ts|mts|mjs)$/, '');
    replacements.push([`dist/${m[1]}.js`, `dist/${toStem}.js`], [`dist/${m[1]}.d.ts`, `dist/${toStem}.d.ts`]);
    replacements.push([from, to], [`${m[1]}.js`, `${toStem}.js`]);
  } else replacements.push([from, to]);
}
for (const [from, to] of Object.entries(EXTRA)) if (from.endsWith('/')) replacements.push([from.slice(0, -1), to.slice(0, -1)]);
replacements.sort((a, b) => b[0].length - a[0].length);
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const PATHS = new RegExp(`(?<![\\w.\\-]|\\.\\/|\\.\\.\\/)(?:${replacements.map(([f]) => escape(f)).join('|')})(?![\\w\\-]|\\.(?:test\\.)?[a-z])`, 'g');
const byOld = new Map(replacements);
const rewritePaths = (text) => text.replace(PATHS, (p) => byOld.get(p) ?? p);

// ---- 5. public surfaces --------------------------------------------------------------------
const IMPORT = /(^|\n)(import|export)(\s+type)?\s*\{([^}]*)\}\s*from\s*(['"])([^'"]+)\5;?/g;
function parseNames(list, typeOnly) {
  return list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const m = /^(type\s+)?([\w$]+)(?:\s+as\s+([\w$]+))?$/.exec(s);
      return m ? { name: m[2], alias: m[3], type: typeOnly || Boolean(m[1]) } : undefined;
    });
}
function isTypeExport(moduleText, name) {
  return new RegExp(`export\\s+(?:declare\\s+)?(?:interface|type)\\s+${name}\\b`).test(moduleText) && !new RegExp(`export\\s+(?:const|let|function|class|enum|async function)\\s+${name}\\b`).test(moduleText);
}

// ---- 6. apply ------------------------------------------------------------------------------
process.stdout.write(`relayout: ${moves.size} files move${DRY_RUN ? ' (dry run)' : ''}\n`);
for (const [from, to] of [...moves].sort()) process.stdout.write(`  ${from} -> ${to}\n`);
for (const p of missing) process.stdout.write(`  (not in this tree, skipped: ${p})\n`);

// New contents, computed from the old tree before anything moves.
const contents = new Map(); // new path -> text
for (const file of tracked) {
  if (!TEXT.test(file) || file === 'package-lock.json' || file.startsWith('cases/')) continue;
  if (file === 'scripts/relayout.mjs') continue;
  // The page's templates and scripts are report bytes (inlined into matrix.html): never edited.
  if (file.startsWith('reports/templates/')) continue;
  let old = readFileSync(file, 'utf8');
  for (const edit of EDITS.filter((e) => e.file === file)) {
    const count = old.split(edit.from).length - 1;
    if (count !== 1) fail(1, [`relayout: the edit of ${edit.file} expected "${edit.from}" once and found it ${count} times; update EDITS`]);
    old = old.replace(edit.from, edit.to);
  }
  if (file.includes('__golden__/')) {
    const hits = old.match(PATHS);
    if (hits) fail(1, [`relayout: the golden file ${file} names moved paths (${[...new Set(hits)].join(', ')}); goldens are never edited: decide by hand`]);
    continue;
  }
  let text = CODE.test(file) ? rewriteCode(file, old) : old;
  text = rewritePaths(text);
  const edited = EDITS.some((e) => e.file === file);
  if (text !== old || edited || moves.has(file)) contents.set(newOf(file), { text, changed: text !== old || edited });
}
// cases/ hold descriptions only; report (not edit) a path they name.
for (const file of tracked.filter((p) => p.startsWith('cases/'))) {
  const hits = readFileSync(file, 'utf8').match(PATHS);
  if (hits) warnings.push(`${file} names ${[...new Set(hits)].join(', ')}: cases are data, not rewritten`);
}

// Surfaces: the names code outside each concern folder imports from it.
const surfaces = new Map(SURFACE_FOLDERS.map((dir) => [dir, new Map()])); // dir -> name -> {module, type, clash}
const folderOf = (path) => SURFACE_FOLDERS.find((dir) => path.startsWith(`${dir}/`));
const importSites = []; // { file, folder, module, names }
for (const [file, entry] of contents) {
  if (!/\.(ts|mts)$/.test(file)) continue;
  for (const m of entry.text.matchAll(IMPORT)) {
    if (!m[6].startsWith('.')) continue;
    const target = posix.normalize(posix.join(dirname(file), m[6])).replace(/\.js$/, '.ts');
    const folder = folderOf(target);
    if (!folder || folderOf(file) === folder || posix.basename(target) === 'index.ts') continue;
    const names = parseNames(m[4], Boolean(m[3]));
    if (names.some((n) => !n)) continue;
    importSites.push({ file, folder, module: target, names, statement: m[0].replace(/^\n/, '') });
  }
}
// A name is exported under the name its callers use (`render as renderTap` -> `renderTap`); a
// name that means two things in one folder (formats' `render`) stays imported from its module.
for (const site of importSites) {
  const surface = surfaces.get(site.folder);
  for (const { name, alias } of site.names) {
    const key = alias ?? name;
    const seen = surface.get(key);
    if (seen && (seen.module !== site.module || seen.name !== name)) seen.clash = true;
    else if (!seen) surface.set(key, { module: site.module, name, clash: false });
  }
}
const barrelFiles = new Map();
for (const [dir, surface] of surfaces) {
  const byModule = new Map();
  for (const [key, { module, name, clash }] of surface) {
    if (clash) continue;
    const moduleText = contents.get(module)?.text ?? readFileSync(module, 'utf8');
    const list = byModule.get(module) ?? { values: [], types: [] };
    const binding = key === name ? name : `${name} as ${key}`;
    (isTypeExport(moduleText, name) ? list.types : list.values).push(binding);
    byModule.set(module, list);
  }
  if (byModule.size === 0) continue;
  const lines = [
    `// The public surface of ${dir}/: what code outside the folder uses. scripts/relayout.mjs made`,
    '// this list from the imports; a new caller adds the name it needs.',
  ];
  for (const [module, { values, types }] of [...byModule].sort(([a], [b]) => a.localeCompare(b))) {
    const spec = `./${posix.basename(module).replace(/\.ts$/, '.js')}`;
    if (values.length) lines.push(`export { ${values.sort().join(', ')} } from '${spec}';`);
    if (types.length) lines.push(`export type { ${types.sort().join(', ')} } from '${spec}';`);
  }
  barrelFiles.set(`${dir}/index.ts`, `${lines.join('\n')}\n`);
}
const kept = [];
for (const site of importSites) {
  const surface = surfaces.get(site.folder);
  if (!barrelFiles.has(`${site.folder}/index.ts`)) continue;
  if (site.names.some(({ name, alias }) => surface.get(alias ?? name)?.clash)) {
    kept.push(`${site.file}: ${site.names.map((n) => n.name).join(', ')} from ${site.module} (a name two modules of ${site.folder}/ export)`);
    continue;
  }
  const entry = contents.get(site.file);
  const spec = relative(dirname(site.file), `${site.folder}/index.js`, false);
  const next = site.statement
    .replace(/\{([^}]*)\}/, (_, list) => `{${list.split(',').map((part) => part.replace(/^(\s*)(type\s+)?([\w$]+)\s+as\s+([\w$]+)(\s*)$/, '$1$2$4$5')).join(',')}}`)
    .replace(/(['"])[^'"]+\1(;?)$/, `'${spec}'$2`);
  entry.text = entry.text.replace(site.statement, next);
  entry.changed = true;
}
for (const file of barrelFiles.keys()) if (trackedSet.has(file)) fail(1, [`relayout: ${file} exists already`]);

if (DRY_RUN) {
  for (const [file, text] of barrelFiles) process.stdout.write(`\n${file}:\n${text}`);
  for (const [file, { changed }] of contents) if (changed) process.stdout.write(`  rewritten: ${file}\n`);
  for (const w of warnings) process.stdout.write(`  check: ${w}\n`);
  for (const k of kept) process.stdout.write(`  imported from its module: ${k}\n`);
  process.exit(0);
}

for (const [from, to] of moves) {
  mkdirSync(dirname(to), { recursive: true });
  git('mv', from, to);
}
for (const [file, { text, changed }] of contents) if (changed) writeFileSync(file, text);
for (const [file, text] of barrelFiles) writeFileSync(file, text);
git('add', '-A', '--', ...new Set([...contents.keys()].filter((f) => contents.get(f).changed)), ...barrelFiles.keys());

// What is left naming an old place (outside goldens and cases): should be nothing.
const oldNames = [...moves.keys()].filter((p) => !p.includes('__golden__') && !p.startsWith('reports/templates/'));
let left = '';
try {
  left = git('grep', '-n', '-P', `(?<![\\w.\\-/])(${oldNames.map((p) => escape(p)).join('|')})(?![\\w\\-])`, '--', '.', ':!scripts/relayout.mjs', ':!cases/**');
} catch {
  // git grep exits 1 when nothing matches
}
if (left) warnings.push(`old paths still named (check each):\n${left}`);
for (const w of warnings) process.stdout.write(`  check: ${w}\n`);
process.stdout.write(`relayout: done; ${barrelFiles.size} public surfaces written; review \`git diff --cached --stat -M\`\n`);
