// A classifier as a target: the harness plays a correct client around each scripted exchange
// and hands the classifier what came back (over loopback or directly). A classifier function
// runs in-process on its own deep copy of each input (a mutation reaches nothing else);
// a classifier module runs in its own worker thread (isolated-classifier.ts).
import type { Case, ExchangeSpec } from '../cases/case-types.js';
import { readVerdict } from '../classify/read-verdict.js';
import { buildToolCallRequest } from '../harness/build-tool-call-request.js';
import { renderDirectResponse } from '../harness/render-direct-response.js';
import { copyClassifierInput } from '../harness/copy-classifier-input.js';
import { DecodedBodyTooLargeError, type ExchangeResponse } from '../harness/exchange-response.js';
import { HarnessSetupError, openHarnessSession, type HarnessSession } from '../harness/harness-session.js';
import type { Classifier, ClassifierInput, Target, TargetContext, TargetInfo, TargetOutcome, Verdict } from '../vocabulary/types.js';
import { getAdvertisedOutputSchema } from '../vocabulary/version-features.js';
import { ClassifierFailure, type IsolatedClassifier } from './isolated-classifier.js';
import { scriptOutlastsTimeout } from '../run/estimate-wait.js';

/** How long an isolated classifier may take per input beyond the per-exchange timeout. */
const CLASSIFY_SLACK_MS = 1000;

type CallClassifier = (input: ClassifierInput, context: TargetContext) => Promise<unknown>;

/** Wraps a classifier function as a target (in-process: each call gets its own copy of the input). */
export function createClassifierTarget(info: TargetInfo, classify: Classifier): Target {
  const call: CallClassifier = async (input) => classify(copyClassifierInput(input));
  return {
    info,
    usesServer: (mode) => mode === 'http',
    run: (context) => runClassifier(call, context),
  };
}

/** Wraps a classifier module running in its worker thread as a target; close() stops the worker. */
export function createIsolatedClassifierTarget(info: TargetInfo, classifier: IsolatedClassifier): Target {
  const call: CallClassifier = (input, context) => classifier.call(input, { deadlineMs: context.timeoutMs + CLASSIFY_SLACK_MS, signal: context.signal });
  return {
    info,
    usesServer: (mode) => mode === 'http',
    run: (context) => runClassifier(call, context),
    close: () => classifier.close(),
  };
}

async function runClassifier(classify: CallClassifier, context: TargetContext): Promise<TargetOutcome> {
  const { case: item, protocolVersion } = context;
  const verdicts: (Verdict | null)[] = [];
  // What the mock server advertises in tools/list for this version, in both modes alike.
  const outputSchema = getAdvertisedOutputSchema(item.tool, protocolVersion);
  const invalidVerdicts: NonNullable<TargetOutcome['invalidVerdicts']> = [];
  let session: HarnessSession | undefined;
  try {
    session =
      context.mode === 'http'
        ? await openHarnessSession({ url: requireUrl(context), protocolVersion, timeoutMs: context.timeoutMs, signal: context.signal, ...(item.tool ? { tool: item.tool } : {}), ...(context.connections ? { connections: context.connections } : {}) })
        : undefined;
  } catch (error) {
    // No session, no measurement: an error of this cell, never a verdict judged against the case.
    if (error instanceof HarnessSetupError) return { verdicts, error: error.message, ...(error.timedOut ? { errorKind: 'timeout' as const } : {}) };
    throw error;
  }
  try {
    for (const [index, exchange] of item.exchanges.entries()) {
      const previousResult = index > 0 ? getScriptedResult(item.exchanges[index - 1]!) : undefined;
      const request = buildToolCallRequest({ case: item, protocolVersion, exchangeIndex: index, previousResult });
      let response: ExchangeResponse;
      try {
        response = session ? await session.call(request) : renderDirectResponse(exchange, { requestId: request.id, timeoutMs: context.timeoutMs });
      } catch (error) {
        // A decompression bomb in the case is an error of this cell, named as such; anything else is a harness bug.
        if (error instanceof DecodedBodyTooLargeError) return { verdicts, error: `exchange ${index + 1}: ${error.message}` };
        throw error;
      }
      // The harness is this process: a timeout the script does not cause is the runner's own
      // slowness (an overloaded machine), and judging the classifier on it would be a false verdict.
      if (session && response.transportError?.kind === 'timeout' && !context.signal.aborted && !scriptOutlastsTimeout(exchange, context.timeoutMs)) {
        return {
          verdicts,
          error: `exchange ${index + 1}: the harness got no complete response within ${context.timeoutMs} ms, although the script answers sooner: the runner was too busy (an overloaded machine), so the cell was not measured`,
          errorKind: 'timeout',
        };
      }
      const input: ClassifierInput = { ...response, expectedId: request.id, protocolVersion, request, ...(outputSchema ? { outputSchema } : {}) };
      let raw: unknown;
      try {
        raw = await classify(input, context);
      } catch (error) {
        if (error instanceof ClassifierFailure && !error.threw) return { verdicts, error: `exchange ${index + 1}: ${error.message}` };
        return { verdicts, error: `the classifier threw on exchange ${index + 1}: ${error instanceof ClassifierFailure ? error.message : describeError(error)}` };
      }
      const read = readVerdict(raw);
      if ('verdict' in read) verdicts.push(read.verdict);
      else {
        verdicts.push(null);
        invalidVerdicts.push({ index, value: raw, problem: read.problem });
      }
    }
  } finally {
    await session?.close();
  }
  return invalidVerdicts.length > 0 ? { verdicts, invalidVerdicts } : { verdicts };
}

/** The result the script sent in an exchange, which an MRTR follow-up answers. */
function getScriptedResult(exchange: ExchangeSpec): unknown {
  const body = exchange.response.body;
  if (!body) return undefined;
  if ('json' in body) return resultOf(body.json);
  if ('sse' in body) {
    const event = body.sse.events.find((e) => e.response);
    return event ? resultOf(event.data) : undefined;
  }
  return undefined;
}

function resultOf(message: unknown): unknown {
  return message !== null && typeof message === 'object' && 'result' in message ? (message as { result: unknown }).result : undefined;
}

function requireUrl(context: TargetContext): string {
  if (!context.serverUrl) throw new Error('classifier target in http mode needs a server URL (harness bug)');
  return context.serverUrl;
}

function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

export type { Case };
