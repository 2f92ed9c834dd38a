// The schema commands, for runner/cli.ts to wire in.
export { runSchemasCommand } from './schemas-command.js';
export { runValidateCommand } from './validate-command.js';
export type { CommandIO } from './command-io.js';
