// MR26 § Client Requirements: an input_required answer is followed by the same method with a
// new JSON-RPC id, inputResponses under the keys of inputRequests, and requestState echoed
// byte for byte — absent when the server gave none.
import type { Check, CheckLevel } from '../../vocabulary/types.js';
import { makeCheck } from '../make-check.js';
import { isRecord, type WireCall } from './read-wire-calls.js';

/**
 * One check over every follow-up. The first input_required answer must be followed up; a
 * later one may be abandoned (a client may cap an input loop), but a follow-up that is sent
 * must be right.
 */
export function judgeMrtrFollowUps(id: string, level: CheckLevel, calls: WireCall[]): Check {
  const asked = calls.filter((call) => call.outcome === 'INPUT_REQUIRED');
  if (asked.length === 0) {
    return makeCheck({ id, level, expected: 'a follow-up after input_required', actual: 'no input_required answer was received', passed: true });
  }
  let followed = 0;
  for (const original of asked) {
    const followUp = calls[original.n];
    if (followUp === undefined) {
      if (original === asked[0]) {
        return makeCheck({ id, level, expected: 'a follow-up', actual: 'none sent', passed: false, exchange: original.transcript, message: `${id}: no follow-up after the input_required answer to POST ${original.n}` });
      }
      continue;
    }
    followed++;
    const problems = findProblems(original, followUp, calls);
    if (problems.length > 0) {
      return makeCheck({ id, level, expected: describeExpected(original), actual: problems, passed: false, exchange: followUp.transcript, message: `${id}: POST ${followUp.n}: ${problems.join('; ')}` });
    }
  }
  return makeCheck({ id, level, expected: 'new id, same keys, echoed requestState', actual: `${followed} follow-up(s) right`, passed: true });
}

function findProblems(original: WireCall, followUp: WireCall, calls: WireCall[]): string[] {
  const problems: string[] = [];
  const earlierIds = calls.filter((call) => call.n < followUp.n).map((call) => JSON.stringify(call.id));
  if (earlierIds.includes(JSON.stringify(followUp.id))) problems.push(`reuses the id ${JSON.stringify(followUp.id)} (a follow-up is a new request)`);
  if (followUp.params.name !== original.params.name) problems.push(`calls ${JSON.stringify(followUp.params.name)} instead of ${JSON.stringify(original.params.name)}`);
  const result = original.result ?? {};
  const wanted = isRecord(result.inputRequests) ? Object.keys(result.inputRequests).sort() : [];
  const answered = isRecord(followUp.params.inputResponses) ? Object.keys(followUp.params.inputResponses).sort() : [];
  if (JSON.stringify(wanted) !== JSON.stringify(answered)) {
    problems.push(`inputResponses keys ${JSON.stringify(answered)}, expected ${JSON.stringify(wanted)}`);
  }
  if ('requestState' in result) {
    if (!('requestState' in followUp.params)) problems.push('requestState left out');
    else if (JSON.stringify(followUp.params.requestState) !== JSON.stringify(result.requestState)) {
      problems.push(`requestState ${clip(followUp.params.requestState)} is not the ${clip(result.requestState)} the server sent`);
    }
  } else if ('requestState' in followUp.params) {
    problems.push(`requestState ${clip(followUp.params.requestState)} invented: the server sent none`);
  }
  return problems;
}

function describeExpected(original: WireCall): string {
  const result = original.result ?? {};
  const keys = isRecord(result.inputRequests) ? Object.keys(result.inputRequests) : [];
  const state = 'requestState' in result ? `requestState ${clip(result.requestState)}` : 'no requestState';
  return `a new id, inputResponses for ${JSON.stringify(keys)}, ${state}`;
}

function clip(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
