// Each version predicate at all four protocol versions (issue 29 item 2): a predicate that answers
// for the wrong versions changes what the mock server sends, what the harness expects and how the
// reference classifier reads a response. The expected rows cite WIRE-FACTS(-LEGACY), as the module does.
import { describe, expect, it } from 'vitest';
import * as features from './version-features.js';
import { PROTOCOL_VERSIONS, type ProtocolVersion } from './vocabulary.js';

const TOOL = { outputSchema: { type: 'object' } };

// One row per export: its answer at 2025-03-26, 2025-06-18, 2025-11-25 and 2026-07-28.
const TABLE: Record<Exclude<keyof typeof features, 'isAtLeast'>, [(version: ProtocolVersion) => unknown, unknown[]]> = {
  hasInitializeSession: [features.hasInitializeSession, [true, true, true, false]], // 2026-07-28 is stateless
  allowsBatching: [features.allowsBatching, [true, false, false, false]], // LEGACY 2.1: added in 03-26, removed in 06-18
  hasProtocolVersionHeader: [features.hasProtocolVersionHeader, [false, true, true, true]], // LEGACY 1.13-1.14
  hasStreamResumption: [features.hasStreamResumption, [true, true, true, false]], // LEGACY 1.20
  hasStructuredContent: [features.hasStructuredContent, [false, true, true, true]], // LEGACY 3.2-3.8
  allowsServerRequestsOnStream: [features.allowsServerRequestsOnStream, [true, true, true, false]], // LEGACY 1.6; SH26 forbids them
  hasUrlElicitationError: [features.hasUrlElicitationError, [false, false, true, false]], // LEGACY 2.12; retired in 26 (WIRE-FACTS S6)
  getOutputSchemaDialect: [features.getOutputSchemaDialect, [undefined, 'draft-07', '2020-12', '2020-12']], // LEGACY 3.16
  getAdvertisedOutputSchema: [(version) => features.getAdvertisedOutputSchema(TOOL, version), [undefined, TOOL.outputSchema, TOOL.outputSchema, TOOL.outputSchema]], // LEGACY 3.11
};

describe('each version predicate at all four protocol versions', () => {
  it.each(Object.entries(TABLE))('%s', (_name, [predicate, expected]) => {
    expect(PROTOCOL_VERSIONS.map((version) => predicate(version))).toEqual(expected);
  });

  it('isAtLeast follows the order of PROTOCOL_VERSIONS for every pair', () => {
    for (const [i, version] of PROTOCOL_VERSIONS.entries()) {
      expect(PROTOCOL_VERSIONS.map((since) => features.isAtLeast(version, since))).toEqual(PROTOCOL_VERSIONS.map((_, j) => j <= i));
    }
  });

  it('a tool without an outputSchema advertises none at any version', () => {
    expect(PROTOCOL_VERSIONS.map((version) => features.getAdvertisedOutputSchema(undefined, version))).toEqual([undefined, undefined, undefined, undefined]);
    expect(PROTOCOL_VERSIONS.map((version) => features.getAdvertisedOutputSchema({}, version))).toEqual([undefined, undefined, undefined, undefined]);
  });

  it('the table covers every export of the module (a new predicate gets its row)', () => {
    expect(Object.keys(features).sort()).toEqual([...Object.keys(TABLE), 'isAtLeast'].sort());
  });
});
