// Built-in real-client targets `ts-sdk@<version>` and `ts-client@<version>`: the official
// TypeScript SDK of that exact version, driven by a persistent worker process (worker.mjs).
import { DEFAULT_TOOL } from '../../cases/case-types.js';
import { readVerdict } from '../../classify/read-verdict.js';
import { type ProtocolVersion, type Target, type TargetContext, type TargetOutcome, type Verdict } from '../../types.js';
import { resolveSdkPackage, type ResolveSdkOptions, type ResolvedSdkPackage } from './resolve-sdk-package.js';
import { SdkWorker, type WorkerAnswer } from './sdk-worker.js';
import { MAX_CELL_EXCHANGE_TIMEOUTS } from '../../run/cell-budget.js';

/** Slack on top of the SDK's own per-call timeouts before a silent worker counts as wedged. */
const WORKER_SLACK_MS = 1500;

/** Resolves the package (installing it if needed), starts its worker and returns the target. */
export async function createSdkTarget(spec: string, options: ResolveSdkOptions = {}): Promise<Target & { worker: SdkWorker; resolved: ResolvedSdkPackage }> {
  const resolved = await resolveSdkPackage(spec, options);
  const worker = new SdkWorker(resolved.flavor, resolved.dir);
  const hello = await worker.start();
  const speaks = new Set(hello.versions);
  return {
    info: { name: spec, kind: 'client', version: resolved.version, source: resolved.source },
    worker,
    resolved,
    usesServer: () => true,
    skipReason: (version: ProtocolVersion) =>
      speaks.has(version) ? undefined : `${spec} does not speak ${version} (it supports ${hello.versions.join(', ')})`,
    run: (context) => runSdkCell(worker, context),
    close: () => worker.close(),
  };
}

async function runSdkCell(worker: SdkWorker, context: TargetContext): Promise<TargetOutcome> {
  if (!context.serverUrl) return { verdicts: [], error: 'the SDK target needs the mock server URL (harness bug)' };
  const calls = context.case.client?.calls ?? 1;
  const tool = context.case.tool ?? DEFAULT_TOOL;
  // Each explicit call or scripted exchange (MRTR rounds) may take the SDK's timeout, plus one for
  // connect; kept just below the runner's own cell budget (capped alike, cell-budget.ts) so a
  // wedged worker is reported (and replaced) by us first.
  const budgetMs = context.timeoutMs * Math.min(Math.max(calls, context.case.exchanges.length) + 2, MAX_CELL_EXCHANGE_TIMEOUTS) + WORKER_SLACK_MS;
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
    },
    budgetMs,
  );
  const durationMs = Math.round(performance.now() - started);
  const notes = answer.notes?.join('\n');
  const run = { timedOut: answer.error?.includes('no answer within') ?? false, durationMs, ...(notes ? { stderr: notes } : {}) };
  if (answer.error !== undefined) return { verdicts: [], error: answer.error, run };
  const verdicts: (Verdict | null)[] = [];
  const invalidVerdicts: NonNullable<TargetOutcome['invalidVerdicts']> = [];
  for (let index = 0; index < calls; index++) {
    const raw = answer.verdicts?.[index] ?? null;
    if (raw === null) {
      verdicts.push(null);
      continue;
    }
    const read = readVerdict(raw);
    if ('verdict' in read) verdicts.push(read.verdict);
    else {
      verdicts.push(null);
      invalidVerdicts.push({ index, value: raw, problem: read.problem });
    }
  }
  return invalidVerdicts.length > 0 ? { verdicts, invalidVerdicts, run } : { verdicts, run };
}

/** Factories for `resolve-target.ts`, by kind: `ts-sdk@<version>` (v1 package) and `ts-client@<version>` (v2). */
export const SDK_TARGET_KINDS: Record<string, (spec: string) => Promise<Target>> = {
  'ts-sdk': (spec) => createSdkTarget(spec),
  'ts-client': (spec) => createSdkTarget(spec),
};
