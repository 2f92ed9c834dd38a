// The case's wire rules (`client.wire`), plus the defaults: the client called the tool at all
// (MUST); it did not re-send a tool that is neither read-only nor idempotent after an answer that
// left the call's outcome unknown (MUST, an unsafe retry, whatever else the cell says); and, when
// the case sets no count, did not replay such a tool at all (POLICY).
import type { Case, WireRule } from '../../cases/case-types.js';
import { getRecovery } from '../../classify/verdict.js';
import type { Check, ProtocolVersion } from '../../vocabulary/types.js';
import { makeCheck } from '../make-check.js';
import { judgeMrtrFollowUps } from './judge-mrtr.js';
import type { WireCall } from './read-wire-calls.js';

// A small allowance for timer granularity between the server's write and the client's clock.
const RETRY_AFTER_SLACK_MS = 20;

/** Checks `wire.<rule>` for each rule that applies to the version, then the defaults. */
export function judgeWireRules(item: Case, version: ProtocolVersion, calls: WireCall[]): Check[] {
  const rules = (item.client?.wire ?? []).filter((rule) => rule.versions === undefined || rule.versions.includes(version));
  const explicit = item.client?.calls ?? 1;
  const checks = rules.map((rule) => judgeRule(rule, calls, explicit));
  checks.push(judgeCalled(explicit, calls));
  checks.push(...judgeUnsafeRetry(item, rules, calls));
  if (!rules.some((rule) => rule.rule === 'tool-call-posts')) checks.push(...judgeDefaultReplay(item, calls));
  return checks;
}

/** A tool a second send may run twice: neither read-only nor idempotent by its annotations. */
function isUnsafeToRepeat(item: Case): boolean {
  const annotations = item.tool?.annotations ?? {};
  return annotations.readOnlyHint !== true && annotations.idempotentHint !== true;
}

/**
 * A tools/call sent again (not an MRTR follow-up, beyond the explicit calls) right after an answer
 * whose outcome, as the reference reads it, leaves unknown whether the tool ran (HTTP_ERROR,
 * STREAM_INCOMPLETE, NO_RESPONSE: a replay only if idempotent, OUTCOMES.md): the tool may have run
 * twice. A MUST with consequence `unsafe-retry`, counted in every summary whatever the outcome
 * check says. A case whose own tool-call-posts rule allows more POSTs than explicit calls has said
 * the re-send is safe there (e.g. the session expired, so the request was never processed).
 */
function judgeUnsafeRetry(item: Case, rules: WireRule[], calls: WireCall[]): Check[] {
  const explicit = item.client?.calls ?? 1;
  if (!isUnsafeToRepeat(item)) return [];
  if (rules.some((rule) => rule.rule === 'tool-call-posts' && (rule.max === undefined || rule.max > explicit))) return [];
  const sends = calls.filter((call) => !call.isFollowUp);
  const resends = Math.max(0, sends.length - explicit);
  const unsafe = resends === 0 ? undefined : sends.slice(1).find((call) => leavesOutcomeUnknown(calls[call.n - 2]!));
  const base = { id: 'wire.no-unsafe-retry', level: 'MUST' as const, expected: 0 };
  if (unsafe === undefined) {
    return [makeCheck({ ...base, actual: 0, passed: true, message: 'wire.no-unsafe-retry: the tool (neither read-only nor idempotent) was not re-sent after an answer that left its outcome unknown' })];
  }
  const before = calls[unsafe.n - 2]!;
  return [
    makeCheck({
      ...base,
      actual: resends,
      passed: false,
      exchange: unsafe.transcript,
      consequence: 'unsafe-retry',
      message: `wire.no-unsafe-retry: POST ${unsafe.n} re-sent the tool (neither read-only nor idempotent) after POST ${before.n} left its outcome unknown (${before.outcome}): it may have run twice`,
    }),
  ];
}

function leavesOutcomeUnknown(call: WireCall): boolean {
  const recovery = getRecovery(call.outcome);
  return !recovery.hasFinalResult && (recovery.replay === 'if_idempotent' || recovery.replay === 'reissue_if_idempotent');
}

function judgeRule(rule: WireRule, calls: WireCall[], explicit: number): Check {
  const id = `wire.${rule.rule}`;
  const why = rule.why ? ` (${rule.why})` : '';
  switch (rule.rule) {
    case 'tool-call-posts': {
      const expected = { min: rule.min ?? 0, ...(rule.max === undefined ? {} : { max: rule.max }) };
      const passed = calls.length >= expected.min && (rule.max === undefined || calls.length <= rule.max);
      const range = rule.max === undefined ? `at least ${expected.min}` : expected.min === rule.max ? `${rule.max}` : `${expected.min}–${rule.max}`;
      return makeCheck({ id, level: rule.level, expected, actual: calls.length, passed, message: `${id}: ${range} tools/call POST(s) expected, ${calls.length} sent${passed ? '' : why}` });
    }
    case 'retry-after':
      return judgeRetryAfter(id, rule, calls);
    case 'retry-backoff':
      return judgeBackoff(id, rule, calls);
    case 'mrtr-follow-up':
      return judgeMrtrFollowUps(id, rule.level, calls);
    case 'reissue-new-id':
      return judgeNewIds(id, rule, calls);
    case 'no-request-after-final':
      return judgeNothingAfterFinal(id, rule, calls, explicit);
  }
}

// Always: the client made its explicit calls at all (without a tools/call there is nothing to
// judge it on), whatever bounds the case's own `tool-call-posts` rule sets for retries.
function judgeCalled(explicit: number, calls: WireCall[]): Check {
  const passed = calls.length >= explicit;
  return makeCheck({
    id: 'wire.tool-called',
    level: 'MUST',
    expected: { min: explicit },
    actual: calls.length,
    passed,
    message: `wire.tool-called: ${explicit} explicit call(s) expected, ${calls.length} tools/call POST(s) sent${passed ? '' : ' (nothing to judge the client on)'}`,
  });
}

function judgeDefaultReplay(item: Case, calls: WireCall[]): Check[] {
  const explicit = item.client?.calls ?? 1;
  const annotations = item.tool?.annotations ?? {};
  if (annotations.readOnlyHint === true || annotations.idempotentHint === true) return [];
  // Follow-ups answer an input_required result; they are not replays.
  const sent = calls.filter((call) => !call.isFollowUp).length;
  const replays = Math.max(0, sent - explicit);
  const first = calls.filter((call) => !call.isFollowUp)[explicit];
  return [
    makeCheck({
      id: 'wire.no-auto-replay',
      level: 'POLICY',
      expected: 0,
      actual: replays,
      passed: replays === 0,
      message:
        replays === 0
          ? 'wire.no-auto-replay: the tool (neither read-only nor idempotent) was not replayed'
          : `wire.no-auto-replay: the tool is neither read-only nor idempotent, yet it was sent ${replays} more time(s) than the ${explicit} explicit call(s)`,
      ...(first ? { exchange: first.transcript } : {}),
    }),
  ];
}

// RFC 9110 § 10.2.3: delay-seconds or an HTTP-date. The date form is measured against the
// response's own Date header, since the recording has no wall clock.
function judgeRetryAfter(id: string, rule: WireRule, calls: WireCall[]): Check {
  for (const call of calls.slice(0, -1)) {
    const response = call.exchange.response;
    const delayMs = parseRetryAfter(response?.headers['retry-after'], response?.headers['date']);
    if (delayMs === undefined) continue;
    const next = calls[call.n]!;
    const waited = Math.round(next.exchange.at - (response?.endedAt ?? call.exchange.at));
    if (waited + RETRY_AFTER_SLACK_MS < delayMs) {
      return makeCheck({ id, level: rule.level, expected: `≥ ${delayMs} ms`, actual: `${waited} ms`, passed: false, exchange: next.transcript, message: `${id}: POST ${next.n} came ${waited} ms after a Retry-After of ${delayMs} ms` });
    }
  }
  return makeCheck({ id, level: rule.level, expected: 'retries wait for Retry-After', actual: calls.length > 1 ? 'waited' : 'no retry', passed: true });
}

const DEFAULT_MIN_BACKOFF_MS = 100;

// Recommended practice, not spec (neither version defines retries): a retry after a failed answer
// waits at least `min` ms, and the waits do not shrink, so a struggling server gets air.
function judgeBackoff(id: string, rule: WireRule, calls: WireCall[]): Check {
  const minimum = rule.min ?? DEFAULT_MIN_BACKOFF_MS;
  const retries = calls.slice(1).filter((call) => !call.isFollowUp && !calls[call.n - 2]!.isFinal);
  const waits = retries.map((call) => {
    const previous = calls[call.n - 2]!.exchange;
    return { call, waited: Math.round(call.exchange.at - (previous.response?.endedAt ?? previous.at)) };
  });
  const expected = `each retry waits ≥ ${minimum} ms, no shorter than the wait before`;
  for (const [index, { call, waited }] of waits.entries()) {
    const before = index > 0 ? waits[index - 1]!.waited : undefined;
    const problem =
      waited + RETRY_AFTER_SLACK_MS < minimum
        ? `POST ${call.n} retried ${waited} ms after a failed answer (at least ${minimum} ms expected)`
        : before !== undefined && waited + RETRY_AFTER_SLACK_MS < before
          ? `POST ${call.n} waited ${waited} ms, less than the ${before} ms before it (no backoff)`
          : undefined;
    if (problem) return makeCheck({ id, level: rule.level, expected, actual: waits.map((w) => `${w.waited} ms`), passed: false, exchange: call.transcript, message: `${id}: ${problem}` });
  }
  return makeCheck({ id, level: rule.level, expected, actual: waits.length ? waits.map((w) => `${w.waited} ms`) : 'no retry', passed: true });
}

function parseRetryAfter(value: string | undefined, date: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  const now = date === undefined ? NaN : Date.parse(date);
  return Number.isNaN(at) || Number.isNaN(now) ? undefined : Math.max(0, at - now);
}

function judgeNewIds(id: string, rule: WireRule, calls: WireCall[]): Check {
  // Ids compared as JSON text, so the number 1 and the string "1" are different ids.
  const seen = new Set<string>();
  for (const call of calls) {
    const key = JSON.stringify(call.id);
    if (seen.has(key)) {
      return makeCheck({ id, level: rule.level, expected: 'a new id', actual: call.id, passed: false, exchange: call.transcript, message: `${id}: POST ${call.n} reuses the id ${JSON.stringify(call.id)} of an earlier tools/call` });
    }
    seen.add(key);
  }
  return makeCheck({ id, level: rule.level, expected: 'a new id', actual: calls.length > 1 ? 'every id new' : 'no re-issue', passed: true });
}

// Each explicit call ends with one final answer; after the last one nothing is re-sent.
function judgeNothingAfterFinal(id: string, rule: WireRule, calls: WireCall[], explicit: number): Check {
  const final = calls.filter((call) => call.isFinal)[explicit - 1];
  const after = final ? calls.filter((call) => call.n > final.n && !call.isFollowUp) : [];
  const passed = after.length === 0;
  return makeCheck({
    id,
    level: rule.level,
    expected: 0,
    actual: after.length,
    passed,
    ...(passed ? {} : { exchange: after[0]!.transcript }),
    message: passed ? `${id}: nothing re-sent after the final answer` : `${id}: ${after.length} tools/call POST(s) after the final answer in POST ${final!.n}`,
  });
}
