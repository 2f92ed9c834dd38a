// Rules of the case format that JSON Schema cannot express: identity against the file
// system and references between fields.
import type { CaseProblem } from './case-errors.js';
import { getExpectedVerdict, type Case, type SseEvent } from './case-types.js';
import { hasStreamResumption } from '../vocabulary/version-features.js';

interface Location {
  /** The file name without .json. */
  fileId: string;
  /** The folder directly under the cases root, if the file is in one. */
  folder: string | undefined;
}

/** Checks one schema-valid case; returns its problems (file names are filled in by the caller). */
export function checkCaseRules(item: Case, location: Location): Omit<CaseProblem, 'file'>[] {
  const problems: Omit<CaseProblem, 'file'>[] = [];
  if (item.id !== location.fileId) {
    problems.push({ pointer: '/id', message: `id "${item.id}" must equal the file name "${location.fileId}"; rename the file or change the id` });
  }
  if (location.folder !== undefined && item.layer !== location.folder) {
    problems.push({ pointer: '/layer', message: `layer "${item.layer}" must equal the folder "${location.folder}"; move the file to cases/${item.layer}/ or change the layer` });
  }
  item.exchanges.forEach((exchange, index) => {
    for (const version of Object.keys(exchange.expectByVersion ?? {})) {
      if (!item.versions.includes(version as Case['versions'][number])) {
        problems.push({ pointer: `/exchanges/${index}/expectByVersion/${version}`, message: `version ${version} is not in /versions (${item.versions.join(', ')}); add it there or remove this entry` });
      }
    }
    exchange.alternatives?.forEach((alternative, at) => {
      const expected = [exchange.expect, ...Object.values(exchange.expectByVersion ?? {})];
      if (expected.some((want) => want.outcome === alternative.outcome && want.status === alternative.status && want.code === alternative.code)) {
        problems.push({ pointer: `/exchanges/${index}/alternatives/${at}`, message: `the alternative ${alternative.outcome} is what the exchange expects; an alternative must be another reading (remove it)` });
      }
    });
    problems.push(...checkServerFault(item, exchange, `/exchanges/${index}/serverFault`));
    if (exchange.request?.followUp && index === 0) {
      problems.push({ pointer: `/exchanges/0/request/followUp`, message: 'the first exchange cannot be a follow-up: there is no earlier result to follow' });
    }
    const body = exchange.response.body;
    if (body && 'sse' in body) {
      const events = body.sse.events;
      const pointer = `/exchanges/${index}/response/body/sse/events`;
      const responses = events.filter((event) => event.response).length;
      if (responses > 1) problems.push({ pointer, message: `${responses} events are marked "response": true; at most one event carries the response` });
      problems.push(...checkResumeOnly(item, events, pointer));
    }
  });
  const calls = item.client?.calls;
  if (calls !== undefined && calls > item.exchanges.length) {
    problems.push({ pointer: '/client/calls', message: `${calls} calls but only ${item.exchanges.length} scripted exchanges; script one exchange per call at least` });
  }
  for (const version of Object.keys(item.client?.outcomeByVersion ?? {})) {
    if (!item.versions.includes(version as Case['versions'][number])) {
      problems.push({ pointer: `/client/outcomeByVersion/${version}`, message: `version ${version} is not in /versions; add it there or remove this entry` });
    }
  }
  return problems;
}

/** A server fault names versions the case covers, and a result a strict client would not conclude anyway. */
function checkServerFault(item: Case, exchange: Case['exchanges'][number], pointer: string): Omit<CaseProblem, 'file'>[] {
  const fault = exchange.serverFault;
  if (fault === undefined) return [];
  const problems: Omit<CaseProblem, 'file'>[] = [];
  for (const version of fault.versions ?? []) {
    if (!item.versions.includes(version)) problems.push({ pointer: `${pointer}/versions`, message: `version ${version} is not in /versions (${item.versions.join(', ')}); add it there or remove it here` });
  }
  for (const version of (fault.versions ?? item.versions).filter((entry) => item.versions.includes(entry))) {
    const want = getExpectedVerdict(exchange, version);
    if (want.outcome === fault.result.outcome && want.status === fault.result.status && want.code === fault.result.code) {
      problems.push({ pointer: `${pointer}/result`, message: `${fault.result.outcome} is what the exchange expects under ${version}: a server fault's result is another reading (name the versions where it is a fault in serverFault.versions)` });
    }
  }
  return problems;
}

/**
 * `resumeOnly` events are replayed only on a GET (versions before 2026-07-28) that resumes after an event id the
 * POST stream sent (T25 § Resumability and Redelivery); they must come after every sent event.
 */
function checkResumeOnly(item: Case, events: SseEvent[], pointer: string): Omit<CaseProblem, 'file'>[] {
  const first = events.findIndex((event) => event.resumeOnly);
  if (first === -1) return [];
  const problems: Omit<CaseProblem, 'file'>[] = [];
  const at = `${pointer}/${first}/resumeOnly`;
  if (item.server?.get !== 'resume') problems.push({ pointer: at, message: 'resumeOnly events need "server": { "get": "resume" }: nothing else replays them' });
  if (!item.versions.some(hasStreamResumption)) problems.push({ pointer: at, message: 'resumeOnly needs a version with resumption (before 2026-07-28): 2026-07-28 has none' });
  if (!events.slice(0, first).some((event) => event.id !== undefined)) problems.push({ pointer: at, message: 'an earlier event of this stream must carry an "id" for the client to resume after' });
  const late = events.findIndex((event, n) => n > first && !event.resumeOnly);
  if (late !== -1) problems.push({ pointer: `${pointer}/${late}`, message: 'events sent on the POST stream must come before every resumeOnly event' });
  return problems;
}
