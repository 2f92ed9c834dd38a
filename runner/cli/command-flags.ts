// Every command's flags go through here: Node's parseArgs, strict, with its errors rewritten
// into one readable line that names the flag, says what to do and points at `<command> --help`.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { closest } from '../cases/case-errors.js';
import { UsageError } from '../util/errors.js';

type FlagOptions = NonNullable<ParseArgsConfig['options']>;

/** Parses a command's arguments; any parse error is a UsageError naming the command and the flag. */
export function parseCommandFlags<const T extends ParseArgsConfig>(command: string, config: T): ReturnType<typeof parseArgs<T>> {
  const options = config.options ?? {};
  const args = joinNegativeValues(config.args ?? [], options);
  try {
    return parseArgs({ ...config, args, strict: true } as T);
  } catch (error) {
    throw new UsageError(`${command}: ${describeFlagError(error, args, options)}; see \`mcp-error-matrix ${command} --help\``);
  }
}

/**
 * `--timeout -5`: Node's parser refuses a value starting with a dash as "ambiguous". A negative
 * number is never a flag, so it is taken as the value, and the flag's own check says what is wrong.
 */
function joinNegativeValues(args: readonly string[], options: FlagOptions): string[] {
  const joined: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    const next = args[index + 1];
    const name = arg.startsWith('--') ? arg.slice(2) : undefined;
    if (name !== undefined && options[name]?.type === 'string' && next !== undefined && /^-\d/.test(next)) {
      joined.push(`${arg}=${next}`);
      index++;
    } else joined.push(arg);
  }
  return joined;
}

/** One readable line for a parseArgs error. */
export function describeFlagError(error: unknown, args: readonly string[] = [], options: FlagOptions = {}): string {
  const { code, message } = error as { code?: unknown; message?: unknown };
  const text = String(message ?? error);
  const flag = /Option '(?:-\w, )?(--?[^' ]+)/.exec(text)?.[1] ?? /'(-[^']*)'/.exec(text)?.[1];
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && flag !== undefined) {
    const guess = closest(flag.replace(/^-+/, ''), Object.keys(options));
    return `unknown option ${flag}${guess ? ` (did you mean --${guess}?)` : ''}`;
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && flag !== undefined) {
    if (/does not take an argument/.test(text)) return `${flag} takes no value`;
    const next = args[args.indexOf(flag) + 1];
    if (/ambiguous/.test(text) && next !== undefined) {
      return `${flag} needs a value, but the next argument ${JSON.stringify(next)} starts with "-"; write ${flag}=VALUE for a value that starts with "-"`;
    }
    return `${flag} needs a value`;
  }
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
    const extra = /Unexpected argument '([^']*)'/.exec(text)?.[1];
    return `unexpected argument ${JSON.stringify(extra ?? '')} (this command takes only flags)`;
  }
  return text.split('\n')[0]!;
}
