// The yaml package, loaded on first use: most runs never need it (a passing run's TAP has no
// YAML diagnostics, and only default-target runs read a baseline), and importing it costs
// 30-45 ms of start-up.
import { createRequire } from 'node:module';

type Yaml = typeof import('yaml');

let yaml: Yaml | undefined;

/** Returns the yaml module, requiring it the first time (its Node entry point is CommonJS). */
export function loadYaml(): Yaml {
  return (yaml ??= createRequire(import.meta.url)('yaml') as Yaml);
}
