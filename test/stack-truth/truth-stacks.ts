// The stacks of the truth corpus: every built-in client kind at every version the project installs
// as an npm alias (dependencies and devDependencies), with what its library does when nothing
// answers: whether it has a deadline of its own, and where it has none, the cases it waits on for
// ever (left out: only a host's timer would end them, and the corpus never lets a timer of ours decide).
import { readFileSync } from 'node:fs';
import { SDK_KINDS, type SdkKind } from '../../runner/targets/sdk/resolve-sdk-package.js';
import { DEADLINE_CASES } from './truth-cases.js';

export interface TruthStack {
  /** The target spec, e.g. `ai-sdk@2.0.99`; also the recording's file name. */
  target: string;
  kind: SdkKind;
  version: string;
  /** The npm alias it is installed under, e.g. `ai-sdk-mcp-2.0.99`. */
  alias: string;
  /** Case id → why the corpus leaves it out for this stack. */
  excluded: Record<string, string>;
}

/**
 * Per kind: the cases its library waits on for ever, because it sets no deadline on a tool call (read
 * from its source and seen in a scouting run: `tookSeconds` stays at the probe host's patience).
 */
const NO_DEADLINE: Partial<Record<SdkKind, { why: string; hangs: string[] }>> = {
  'ai-sdk': { why: '@ai-sdk/mcp sets no deadline on a tool call (only the host\'s abortSignal ends it)', hangs: ['no-response-hang', 'sse-end-without-result', 'sse-reset-mid-stream', 'sse-final-data-not-json'] },
  'mcp-remote': { why: 'the bridge forwards messages and sets no deadline; only the host\'s own timer ends the wait', hangs: ['no-response-hang', 'sse-end-without-result', 'sse-reset-mid-stream', 'sse-final-data-not-json', 'wrong-response-id'] },
};

/**
 * Per kind: the cases where the library does decide, but only after its SDK's default of 60 s, which
 * the host cannot set on the path a user takes, while the adapter's last resort (T × R + T, README §
 * Deadlines) ends the call first and concludes nothing. There probe and adapter disagree by design (the
 * library, waited on, concludes NO_RESPONSE); the corpus leaves the cases out with that reason, as
 * for a library without a deadline, rather than let a timer of ours decide a cell it keeps. The cases:
 * those the v2 client under both waits its 60 s on (the ts-client recordings, every version).
 */
const DEFAULT_DEADLINE_ONLY: Partial<Record<SdkKind, { why: string; hangs: string[] }>> = {
  'inspector-cli': {
    why: 'the CLI takes no timeout flag, so its only deadline is the v2 client\'s default of 60 s; the adapter\'s last resort stops it first and concludes nothing, where the CLI waited on exits 1 "Request timed out" (NO_RESPONSE): a known disagreement, README § Deadlines',
    hangs: ['no-response-hang', 'sse-end-without-result', 'sse-reset-mid-stream', 'sse-final-data-not-json', 'wrong-response-id'],
  },
  'cloudflare-agents': {
    why: 'execute passes no options to callTool and ignores its abortSignal, so the only deadline is the v2 client\'s default of 60 s; the adapter\'s last resort ends the call first and concludes nothing, where the library waited on throws SdkError REQUEST_TIMEOUT (NO_RESPONSE): a known disagreement, README § Deadlines',
    hangs: ['no-response-hang', 'sse-end-without-result', 'sse-reset-mid-stream', 'sse-final-data-not-json', 'wrong-response-id'],
  },
};

/** Every bundled alias of a built-in client kind, in package.json order, sorted by kind then version. */
export function listTruthStacks(packageJsonFile: string): TruthStack[] {
  const pkg = JSON.parse(readFileSync(packageJsonFile, 'utf8')) as { dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
  const installed = { ...pkg.dependencies, ...pkg.devDependencies };
  const stacks: TruthStack[] = [];
  for (const [kind, spec] of Object.entries(SDK_KINDS) as [SdkKind, (typeof SDK_KINDS)[SdkKind]][]) {
    for (const [alias, range] of Object.entries(installed)) {
      const version = alias.startsWith(spec.aliasPrefix) ? alias.slice(spec.aliasPrefix.length) : undefined;
      if (version === undefined || range !== `npm:${spec.packageName}@${version}`) continue;
      const noDeadline = NO_DEADLINE[kind] ?? DEFAULT_DEADLINE_ONLY[kind];
      const excluded = Object.fromEntries((noDeadline?.hangs ?? []).map((id) => [id, `${noDeadline!.why}: ${DEADLINE_CASES[id] ?? 'it waits'}`]));
      stacks.push({ target: `${kind}@${version}`, kind, version, alias, excluded });
    }
  }
  return stacks;
}
