// `mcp-error-matrix validate <file.json> [--version V] [--def NAME]`: check any message
// against the pinned schemas, for people debugging their own servers and clients.
import { resolve } from 'node:path';
import type { CliIo } from '../cli/cli-io.js';
import { parseCommandFlags } from '../cli/command-flags.js';
import { RunnerError, UsageError } from '../util/errors.js';
import { VALIDATE_INPUT_MAX_BYTES } from '../io/input-caps.js';
import { readUserText, UserFileError } from '../io/read-user-file.js';
import type { DetectResult } from '../schema-check/detect.js';
import { resolveSchemas } from '../schema-check/load-schemas.js';
import { createSchemaValidator } from '../schema-check/validator.js';
import { PROTOCOL_VERSIONS, type ProtocolVersion } from '../vocabulary/types.js';

export const VALIDATE_USAGE = `Usage: mcp-error-matrix validate <file.json | -> [--version V] [--def NAME] [--schemas DIR] [--json]
  Checks one JSON-RPC message against the pinned official schemas. Without --version it uses the
  version a request declares (_meta or initialize params), else checks both ${PROTOCOL_VERSIONS.join(' and ')}
  and passes when either accepts it.

  --version V     check under this protocol version only (${PROTOCOL_VERSIONS.join(' | ')})
  --def NAME      check against one $defs name (e.g. CallToolResult) instead of detecting
  --schemas DIR   a folder holding <version>/schema.json (else MCP_SCHEMAS_DIR, the user cache or a download)
  --json          print the result as JSON

Exit 0 valid, 1 invalid, 2 usage or input error.
`;

/** The `validate` command. Exit 0 valid, 1 invalid, 2 usage/input error. */
export async function runValidateCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseFlags(args);
  if (positionals.length !== 1) throw new UsageError(`validate: expected one file (or - for stdin), got ${positionals.length}\n${VALIDATE_USAGE}`);
  const file = positionals[0]!;
  const version = parseVersion(values.version);
  const message = await readMessage(file, io);
  const schemas = await resolveSchemas({
    ...(values.schemas === undefined ? {} : { schemasDir: resolve(io.cwd, values.schemas) }),
    env: io.env,
    cacheDir: io.schemaCacheDir,
    versions: version ? [version] : PROTOCOL_VERSIONS,
    ...io.schemaDownload,
  });
  const result = createSchemaValidator(schemas).detectAndValidate(message, { version, definition: values.def });
  io.stdout(values.json ? `${JSON.stringify({ file, ...result }, null, 2)}\n` : renderResult(file, result));
  return result.valid ? 0 : 1;
}

function parseFlags(args: string[]) {
  return parseCommandFlags('validate', {
    args,
    allowPositionals: true,
    options: {
      version: { type: 'string' },
      def: { type: 'string' },
      schemas: { type: 'string' },
      json: { type: 'boolean' },
    },
  });
}

function parseVersion(value: string | undefined): ProtocolVersion | undefined {
  if (value === undefined) return undefined;
  const version = PROTOCOL_VERSIONS.find((v) => v === value);
  if (!version) throw new UsageError(`--version ${value}: expected ${PROTOCOL_VERSIONS.join(' or ')}`);
  return version;
}

async function readMessage(file: string, io: CliIo): Promise<unknown> {
  let text: string;
  try {
    const readStdin = io.readStdin ?? (() => Promise.reject(new Error('standard input is not available here')));
    text = file === '-' ? await readStdin() : await readUserText(resolve(io.cwd, file), { maxBytes: VALIDATE_INPUT_MAX_BYTES, what: 'message file' });
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
