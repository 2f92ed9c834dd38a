// Measures one (stack, version) of an atlas: start its target (installing the version on first
// use), run the selected cases against it alone, close it. A version that cannot be installed or
// started is not an error of the atlas: it is `not-started`, with the reason, and the atlas goes on.
import type { LoadedCase } from '../cases/case-types.js';
import type { CheckRequestMessage } from '../judge/judge-client.js';
import { MatrixFailure } from '../run/matrix-failure.js';
import type { ReproContext } from '../run/repro.js';
import { runMatrix } from '../run/run-matrix.js';
import type { ProtocolVersion, RunResult, SchemaInfo, SchemaResult, Target } from '../vocabulary/types.js';

export interface VersionMatrixOptions {
  cases: LoadedCase[];
  versions?: ProtocolVersion[];
  timeoutMs: number;
  /** Cells of this version at once (where it starts, when adaptive). */
  concurrencyFor: (target: Target) => number;
  /** Back off when cells come back starved (run-matrix.ts); false pins the number (`--concurrency N`). @default false */
  adaptive?: boolean;
  /** Starts the target of a spec (resolve-target.ts's resolveTarget, or a test's in-process target). */
  resolve: (spec: string) => Promise<Target>;
  checkSchemas?: ((loaded: LoadedCase, version: ProtocolVersion) => SchemaResult[]) | null;
  checkRequest?: CheckRequestMessage | null;
  schemaInfo?: SchemaInfo[] | null;
  repro?: ReproContext;
}

export type VersionMatrix = { result: RunResult } | { notStarted: string } | { interrupted: true };

/** Runs `options.cases` against the one target `spec`; stops (interrupted) when `signal` aborts. */
export async function runVersionMatrix(spec: string, options: VersionMatrixOptions, signal: AbortSignal): Promise<VersionMatrix> {
  if (signal.aborted) return { interrupted: true };
  let target: Target;
  try {
    target = await options.resolve(spec);
  } catch (error) {
    return { notStarted: describeStartFailure(error) };
  }
  try {
    if (signal.aborted) return { interrupted: true };
    const result = await runMatrix({
      cases: options.cases,
      targets: [target],
      ...(options.versions ? { versions: options.versions } : {}),
      mode: 'http',
      timeoutMs: options.timeoutMs,
      concurrency: options.concurrencyFor(target),
      adaptive: options.adaptive ?? false,
      signal,
      checkSchemas: options.checkSchemas ?? null,
      checkRequest: options.checkRequest ?? null,
      schemaInfo: options.schemaInfo ?? null,
      ...(options.repro ? { repro: options.repro } : {}),
    }).catch((error: unknown) => {
      // A harness error is not the version's: it stops the atlas (the schedule rethrows it).
      throw error instanceof MatrixFailure ? error.cause : error;
    });
    return result.complete ? { result } : { interrupted: true };
  } finally {
    await target.close?.();
  }
}

/**
 * Why a target could not start, on one line, without the `--target spec:` prefix the run's errors
 * carry and the hint for reporting a bug: a worker's own words (its uncaught exception) are the
 * useful part, e.g. "@ai-sdk/mcp 0.0.23 exports no createMCPClient".
 */
export function describeStartFailure(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message
    .replace(/^--target \S+: /, '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !/MEM_DEBUG=1/.test(line))
    .join(' — ')
    .slice(0, 2000);
}
