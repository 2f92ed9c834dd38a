// Loads `classifier:<module>[#export]`: a module file whose export is a classifier function.
import { existsSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { TargetSpecError } from '../errors.js';
import type { Classifier } from '../types.js';

/** Imports the module and returns the chosen export, or throws a TargetSpecError saying what to fix. */
export async function loadClassifierModule(spec: string, cwd: string): Promise<{ classify: Classifier; file: string; exportName: string }> {
  const body = spec.slice('classifier:'.length);
  const hash = body.lastIndexOf('#');
  const path = hash === -1 ? body : body.slice(0, hash);
  const requested = hash === -1 ? undefined : body.slice(hash + 1);
  if (path === '') throw new TargetSpecError(spec, 'no module path; write classifier:./path/to/module.js[#exportName]');
  const file = resolve(cwd, path);
  if (!existsSync(file)) throw new TargetSpecError(spec, `module not found: ${file}; check the path (relative paths start from ${cwd})`);
  let module: Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (error) {
    const hint = ['.ts', '.mts', '.cts'].includes(extname(file))
      ? ' (Node cannot import TypeScript by itself: compile it to .js, or run with a loader such as `node --import tsx`)'
      : '';
    throw new TargetSpecError(spec, `cannot import ${file}: ${(error as Error).message}${hint}`);
  }
  const functions = Object.keys(module).filter((key) => typeof module[key] === 'function');
  const exportName = requested ?? (typeof module['default'] === 'function' ? 'default' : typeof module['classify'] === 'function' ? 'classify' : functions.length === 1 ? functions[0]! : undefined);
  if (exportName === undefined) {
    throw new TargetSpecError(spec, `no classifier export found in ${file}; name it with #exportName (function exports: ${functions.join(', ') || 'none'})`);
  }
  const candidate = module[exportName];
  if (typeof candidate !== 'function') {
    throw new TargetSpecError(spec, `export "${exportName}" of ${file} is ${candidate === undefined ? 'missing' : `a ${typeof candidate}`}, not a function (function exports: ${functions.join(', ') || 'none'})`);
  }
  return { classify: candidate as Classifier, file, exportName };
}
