// `mcp-error-matrix validate <file.json> [--version V] [--def NAME]`: check any message
// against the pinned schemas, for people debugging their own servers and clients.
import { parseArgs } from 'node:util';
import { RunnerError, UsageError } from '../errors.js';
import { VALIDATE_INPUT_MAX_BYTES } from '../io/input-caps.js';
import { readUserText, UserFileError } from '../io/read-user-file.js';
import { PROTOCOL_VERSIONS, type ProtocolVersion } from '../types.js';
import { readProcessStdin, runReportingInputErrors, type CommandIO } from './command-io.js';
import type { DetectResult } from './detect.js';
import { resolveSchemas } from './load-schemas.js';
import { createSchemaValidator } from './validator.js';

const USAGE = `Usage: mcp-error-matrix validate <file.json | -> [--version V] [--def NAME] [--schemas DIR] [--json]
  Checks one JSON-RPC message against the pinned official schemas. Without --version it uses the
  version a request declares (_meta or initialize params), else checks both ${PROTOCOL_VERSIONS.join(' and ')}
  and passes when either accepts it. --def checks against one $defs name instead of detecting.
  Exit 0 valid, 1 invalid, 2 usage or input error.
`;

/** The `validate` command. Exit 0 valid, 1 invalid, 2 usage/input error. */
export async function runValidateCommand(args: string[], io: CommandIO): Promise<number> {
  return runReportingInputErrors('validate', io, async () => {
    const { values, positionals } = parseFlags(args);
    if (values.help) {
      io.stdout(USAGE);
      return 0;
    }
    if (positionals.length !== 1) throw new UsageError(`validate: expected one file (or - for stdin), got ${positionals.length}\n${USAGE}`);
    const file = positionals[0]!;
    const version = parseVersion(values.version);
    const message = await readMessage(file, io);
    const schemas = await resolveSchemas({
      schemasDir: values.schemas,
      env: io.env ?? process.env,
      cacheDir: io.cacheDir,
      versions: version ? [version] : PROTOCOL_VERSIONS,
      ...io.download,
    });
    const result = createSchemaValidator(schemas).detectAndValidate(message, { version, definition: values.def });
    io.stdout(values.json ? `${JSON.stringify({ file, ...result }, null, 2)}\n` : renderResult(file, result));
    return result.valid ? 0 : 1;
  });
}

function parseFlags(args: string[]) {
  try {
    return parseArgs({
      args,
      allowPositionals: true,
      options: {
        version: { type: 'string' },
        def: { type: 'string' },
        schemas: { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError(`validate: ${(error as Error).message}\n${USAGE}`);
  }
}

function parseVersion(value: string | undefined): ProtocolVersion | undefined {
  if (value === undefined) return undefined;
  const version = PROTOCOL_VERSIONS.find((v) => v === value);
  if (!version) throw new UsageError(`--version ${value}: expected ${PROTOCOL_VERSIONS.join(' or ')}`);
  return version;
}

async function readMessage(file: string, io: CommandIO): Promise<unknown> {
  let text: string;
  try {
    text = file === '-' ? await (io.readStdin ?? (() => readProcessStdin(VALIDATE_INPUT_MAX_BYTES)))() : await readUserText(file, { maxBytes: VALIDATE_INPUT_MAX_BYTES, what: 'message file' });
  } catch (error) {
    if (error instanceof UserFileError) throw error;
    throw new RunnerError('MEM_INPUT_FILE', `${file}: cannot read (${(error as Error).message})`, { cause: error });
  }
  try {
    return JSON.parse(text.replace(/^\uFEFF/, '')) as unknown;
  } catch (error) {
    throw new RunnerError('MEM_INPUT_FILE', `${file}: not valid JSON (${(error as Error).message})`, { cause: error });
  }
}

function renderResult(file: string, result: DetectResult): string {
  const lines = [`${file}: ${result.kind === 'unknown' ? 'not a recognisable JSON-RPC message' : `JSON-RPC ${result.kind}`}`];
  for (const check of result.checks) {
    lines.push(`  ${check.version}  ${check.valid ? 'valid  ' : 'INVALID'}  ${check.definition}`);
    for (const error of check.errors) lines.push(`      ${error}`);
    for (const note of check.notes) lines.push(`      note: ${note}`);
  }
  for (const skip of result.skipped) lines.push(`  ${skip.version}  skipped  ${skip.reason}`);
  lines.push(summarize(result));
  return `${lines.join('\n')}\n`;
}

function summarize(result: DetectResult): string {
  const validIn = result.checks.filter((c) => c.valid).map((c) => c.version);
  if (result.versionFrom !== 'all') {
    const why = result.versionFrom === 'message' ? 'the version the message declares' : '--version';
    return `${result.valid ? 'valid' : 'INVALID'} under ${result.checks.map((c) => c.version).join(', ')} (${why})`;
  }
  if (validIn.length === 0) return 'INVALID under every version checked';
  if (validIn.length === result.checks.length) return `valid under ${validIn.join(' and ')}`;
  return `valid under ${validIn.join(', ')} only (pass --version to require one version)`;
}
