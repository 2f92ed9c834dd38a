// The name a baseline entry and a cell's target are matched by: the --target spec, except that a
// command client's `#timeout=` and `#versions=` options are left out. They change how the runner
// asks the client, not what it is: a run with a longer #timeout keeps the client's known failures.
import { stripCommandRunOptions } from '../targets/command/parse-command-spec.js';

/** The target name as a baseline keys it. */
export function getBaselineTarget(target: string): string {
  return stripCommandRunOptions(target);
}
