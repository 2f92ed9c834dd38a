// What each protocol version has, as predicates over the ordered PROTOCOL_VERSIONS list: the one
// place the mock server, the harness, the reference classifier and the case rules ask "does this
// version have X?", so a version added to the list needs no `=== '2025-11-25'` hunt.
// Facts: shared/docs/WIRE-FACTS-LEGACY.md (2025-03-26, 2025-06-18 against 2025-11-25) and
// WIRE-FACTS.md (2025-11-25 against 2026-07-28); the fact numbers are cited per predicate.
import { PROTOCOL_VERSIONS, type ProtocolVersion } from './vocabulary.js';

/** True when `version` is `since` or newer. */
export function isAtLeast(version: ProtocolVersion, since: ProtocolVersion): boolean {
  return PROTOCOL_VERSIONS.indexOf(version) >= PROTOCOL_VERSIONS.indexOf(since);
}

/** The initialize handshake and `MCP-Session-Id` sessions (L0326 § Initialization); 2026-07-28 is stateless. */
export function hasInitializeSession(version: ProtocolVersion): boolean {
  return !isAtLeast(version, '2026-07-28');
}

/** JSON-RPC batches: introduced in 2025-03-26, removed in 2025-06-18 (LEGACY 2.1, 1.3, 1.6). */
export function allowsBatching(version: ProtocolVersion): boolean {
  return version === '2025-03-26';
}

/** The `MCP-Protocol-Version` request header after initialization (LEGACY 1.13; absent means 2025-03-26, 1.14). */
export function hasProtocolVersionHeader(version: ProtocolVersion): boolean {
  return isAtLeast(version, '2025-06-18');
}

/** GET resumption with `Last-Event-ID` (LEGACY 1.20): every session version; 2026-07-28 has none. */
export function hasStreamResumption(version: ProtocolVersion): boolean {
  return hasInitializeSession(version);
}

/** `structuredContent`, `outputSchema`, `resource_link`, block `_meta` and `lastModified` (LEGACY 3.3, 3.2, 3.7–3.8). */
export function hasStructuredContent(version: ProtocolVersion): boolean {
  return isAtLeast(version, '2025-06-18');
}

/** Server→client requests allowed on a POST stream before the final response (LEGACY 1.6; SH26 forbids them). */
export function allowsServerRequestsOnStream(version: ProtocolVersion): boolean {
  return hasInitializeSession(version);
}

/** `-32042 URLElicitationRequiredError` with required `data.elicitations` (LEGACY 2.12, D17). */
export function hasUrlElicitationError(version: ProtocolVersion): boolean {
  return version === '2025-11-25';
}

/**
 * The JSON Schema dialect a tool's `outputSchema` is read in when it names none (LEGACY 3.16):
 * 2020-12 from 2025-11-25 (B25 § JSON Schema Usage); 2025-06-18 names none, so the table reads it
 * as draft-07, the dialect of that version's own schema.json (a policy, LEGACY §8.7); 2025-03-26
 * has no `outputSchema` (LEGACY 3.11).
 */
export function getOutputSchemaDialect(version: ProtocolVersion): 'draft-07' | '2020-12' | undefined {
  if (!hasStructuredContent(version)) return undefined;
  return isAtLeast(version, '2025-11-25') ? '2020-12' : 'draft-07';
}

/** The `outputSchema` a server of `version` advertises for a tool: none before 2025-06-18 (LEGACY 3.11). */
export function getAdvertisedOutputSchema(tool: { outputSchema?: Record<string, unknown> } | undefined, version: ProtocolVersion): Record<string, unknown> | undefined {
  return hasStructuredContent(version) ? tool?.outputSchema : undefined;
}
