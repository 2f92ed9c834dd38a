// Loads `classifier:<module>[#export]`: a module file whose export is a classifier function.
// The module is imported in a worker thread of its own (isolated-classifier.ts), never in the
// runner: its top-level code and every call run there.
import { existsSync, statSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import { TargetSpecError } from '../util/errors.js';
import { IsolatedClassifier } from './isolated-classifier.js';

/** Starts the module's worker and chooses the export, or throws a TargetSpecError saying what to fix. */
export async function loadClassifierModule(spec: string, cwd: string): Promise<{ classifier: IsolatedClassifier; file: string; exportName: string }> {
  const body = spec.slice('classifier:'.length);
  const hash = body.lastIndexOf('#');
  const path = hash === -1 ? body : body.slice(0, hash);
  const requested = hash === -1 ? undefined : body.slice(hash + 1);
  if (path === '') throw new TargetSpecError(spec, 'no module path; write classifier:./path/to/module.js[#exportName]');
  const file = resolve(cwd, path);
  if (!existsSync(file)) throw new TargetSpecError(spec, `module not found: ${file}; check the path (relative paths start from ${cwd})`);
  if (!statSync(file).isFile()) throw new TargetSpecError(spec, `${file} is not a regular file; name the module file`);
  const classifier = new IsolatedClassifier(file);
  let kinds: Record<string, string>;
  try {
    kinds = await classifier.load();
  } catch (error) {
    await classifier.close();
    const hint = ['.ts', '.mts', '.cts'].includes(extname(file))
      ? ' (Node cannot import TypeScript by itself, and classifier modules load in a worker thread: compile it to .js first)'
      : '';
    throw new TargetSpecError(spec, `cannot import ${file}: ${(error as Error).message}${hint}`);
  }
  try {
    classifier.exportName = chooseExport(spec, file, kinds, requested);
  } catch (error) {
    await classifier.close();
    throw error;
  }
  return { classifier, file, exportName: classifier.exportName };
}

/** The export to call: the one named after `#`, else `default`, else `classify`, else the only function. */
export function chooseExport(spec: string, file: string, kinds: Record<string, string>, requested: string | undefined): string {
  const functions = Object.keys(kinds).filter((key) => kinds[key] === 'function');
  const exportName = requested ?? (kinds['default'] === 'function' ? 'default' : kinds['classify'] === 'function' ? 'classify' : functions.length === 1 ? functions[0]! : undefined);
  if (exportName === undefined) {
    throw new TargetSpecError(spec, `no classifier export found in ${file}; name it with #exportName (function exports: ${functions.join(', ') || 'none'})`);
  }
  const kind = Object.hasOwn(kinds, exportName) ? kinds[exportName] : undefined;
  if (kind !== 'function') {
    throw new TargetSpecError(spec, `export "${exportName}" of ${file} is ${kind === undefined ? 'missing' : `a ${kind}`}, not a function (function exports: ${functions.join(', ') || 'none'})`);
  }
  return exportName;
}
