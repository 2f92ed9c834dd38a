// Built-in real-client targets `<kind>@<version>` (SDK_KINDS): the official TypeScript SDK
// (`ts-sdk`, `ts-client`) or a client stack of that exact version, driven by a persistent worker
// process (worker.mjs, with the stack's adapter under stacks/).
import { DEFAULT_TOOL } from '../../cases/case-types.js';
import { type ProtocolVersion, type Target, type TargetContext, type TargetOutcome } from '../../vocabulary/types.js';
import { describeMissingTransport, resolveSdkPackage, SDK_KINDS, type ResolveSdkOptions, type ResolvedSdkPackage } from './resolve-sdk-package.js';
import { SdkWorker, type WorkerAnswer } from './sdk-worker.js';
import { getCallDeadlines, getWorkerBudgetMs } from './call-deadlines.js';
import { readWorkerAnswer } from './read-worker-answer.js';
import { TargetStartError } from '../unstarted-target.js';

export interface CreateSdkTargetOptions extends ResolveSdkOptions {
  /**
   * The protocol versions the run will ask about. A library that declares no version list is probed
   * with one call per version at start (mcp-remote: a process each); only these are probed.
   * @default every version
   */
  versions?: readonly ProtocolVersion[];
}

/**
 * Resolves the package (installing it if needed), starts its worker and returns the target. A
 * version without a Streamable HTTP client, or whose worker exits before it is ready, throws a
 * TargetStartError: the run goes on with that target's cells `skip` or `error` (issue 28 item 2).
 */
export async function createSdkTarget(spec: string, options: CreateSdkTargetOptions = {}): Promise<Target & { worker: SdkWorker; resolved: ResolvedSdkPackage }> {
  const resolved = await resolveSdkPackage(spec, options);
  const info = { name: spec, kind: 'client', version: resolved.version, source: resolved.source, stack: SDK_KINDS[resolved.kind].stack };
  const missing = describeMissingTransport(resolved);
  if (missing !== undefined) throw new TargetStartError(info, `${spec} ${missing}`, { skip: true });
  const worker = new SdkWorker(resolved.flavor, resolved.dir, options.versions);
  let hello;
  try {
    hello = await worker.start();
  } catch (error) {
    await worker.close();
    throw new TargetStartError(info, error instanceof Error ? error.message : String(error));
  }
  const speaks = new Set(hello.versions);
  // A declared list names what the library supports; a probed one says what the probe saw.
  const unspokenReason = (version: ProtocolVersion): string =>
    hello.probed !== undefined && !hello.probed.includes(version)
      ? `${spec}: ${version} was not probed (the run asked only for ${hello.probed.join(', ') || 'no version'})`
      : hello.unspoken?.[version] !== undefined
        ? `${spec} does not speak ${version}: a call against a server speaking only ${version} failed (${hello.unspoken[version]})`
        : `${spec} does not speak ${version} (it supports ${hello.versions.join(', ') || 'none of the matrix versions'})`;
  return {
    info,
    worker,
    resolved,
    usesServer: () => true,
    // A stack that starts a process per cell (mcp-remote's bridge) says so through its start-up time.
    startsProcessPerCell: (hello.startupMs ?? 0) > 0,
    cpuBoundCells: 'cpuBoundCells' in SDK_KINDS[resolved.kind],
    skipReason: (version: ProtocolVersion) => (speaks.has(version) ? undefined : unspokenReason(version)),
    run: (context) => runSdkCell(worker, context, hello.startupMs ?? 0),
    // The worker's budget for a cell (every call's last-resort budget, the drain window, a stack's
    // start-up): the runner waits that long, plus its slack, before it stops waiting.
    getCellLimitMs: (context: Pick<TargetContext, 'timeoutMs' | 'case'>) => getWorkerBudgetMs(context, hello.startupMs ?? 0),
    close: () => worker.close(),
  };
}

async function runSdkCell(worker: SdkWorker, context: TargetContext, startupMs: number): Promise<TargetOutcome> {
  if (!context.serverUrl) return { verdicts: [], error: 'the SDK target needs the mock server URL (harness bug)' };
  const calls = context.case.client?.calls ?? 1;
  const tool = context.case.tool ?? DEFAULT_TOOL;
  const started = performance.now();
  const answer: WorkerAnswer = await worker.run(
    {
      url: context.serverUrl,
      caseId: context.case.id,
      protocolVersion: context.protocolVersion,
      tool: tool.name,
      arguments: tool.arguments ?? {},
      calls,
      timeoutMs: context.timeoutMs,
      ...getCallDeadlines(context),
    },
    getWorkerBudgetMs(context, startupMs),
  );
  return readWorkerAnswer(answer, calls, Math.round(performance.now() - started));
}

/** Factories for `resolve-target.ts`, one per kind in SDK_KINDS (`ts-sdk@<version>`, `ai-sdk@<version>`, …). */
type SdkTargetFactory = (spec: string, options?: Pick<CreateSdkTargetOptions, 'versions' | 'cacheDir' | 'onInstall'>) => Promise<Target>;

export const SDK_TARGET_KINDS: Record<string, SdkTargetFactory> = Object.fromEntries(
  Object.keys(SDK_KINDS).map((kind): [string, SdkTargetFactory] => [
    kind,
    (spec, options) => createSdkTarget(spec, { ...(options?.versions ? { versions: options.versions } : {}), ...(options?.cacheDir ? { cacheDir: options.cacheDir } : {}), ...(options?.onInstall ? { onInstall: options.onInstall } : {}) }),
  ]),
);
