// The `validate` command's logic: decide what a message is and which versions to check it
// under, then check it. Kept apart from the CLI so it can be tested without files.
import { PROTOCOL_VERSIONS, type ProtocolVersion } from '../vocabulary/types.js';
import { checkRequestMessage, checkResponseMessage, getMessageKind, type MessageCheck, type MessageKind } from './message-checks.js';
import { SchemaDefinitionError, type DefinitionValidator } from './definition-validator.js';

export interface DetectOptions {
  /** Check only this version. @default the version the message declares, else every loaded version */
  version?: ProtocolVersion;
  /** Check against this `$defs` name instead of detecting request/response. */
  definition?: string;
}

export interface DetectResult {
  kind: MessageKind;
  /** Why these versions: the caller chose, the message declared one, or all loaded versions. */
  versionFrom: 'option' | 'message' | 'all';
  checks: MessageCheck[];
  /** Versions skipped because the requested definition does not exist there. */
  skipped: { version: ProtocolVersion; reason: string }[];
  /**
   * With one version (chosen or declared): valid under it. With all versions: valid under at
   * least one, since a message is written for one version and the two disagree by design.
   */
  valid: boolean;
}

/** Detects request vs response, picks the versions and checks the message under each. */
export function detectAndValidate(validator: DefinitionValidator, message: unknown, options: DetectOptions = {}): DetectResult {
  const kind = getMessageKind(message);
  const declared = getDeclaredVersion(message);
  const versionFrom = options.version ? 'option' : declared && validator.versions.includes(declared) ? 'message' : 'all';
  const versions = options.version ? [options.version] : versionFrom === 'message' && declared ? [declared] : [...validator.versions];
  const checks: MessageCheck[] = [];
  const skipped: DetectResult['skipped'] = [];
  for (const version of versions) {
    if (!options.definition) {
      checks.push(kind === 'request' || kind === 'notification' ? checkRequestMessage(validator, version, message) : checkResponseMessage(validator, version, message));
    } else if (validator.hasDefinition(version, options.definition)) {
      const result = validator.validateDefinition(version, options.definition, message);
      checks.push({ version, kind, definition: options.definition, definitions: [options.definition], notes: [], ...result });
    } else {
      skipped.push({ version, reason: `${options.definition} is not defined in ${version}` });
    }
  }
  if (options.definition && checks.length === 0) {
    const known = [...new Set(versions.flatMap((v) => validator.listDefinitions(v)))];
    throw new SchemaDefinitionError(versions.join(' or '), options.definition, known);
  }
  const valid = versionFrom === 'all' ? checks.some((c) => c.valid) : checks.every((c) => c.valid);
  return { kind, versionFrom, checks, skipped, valid };
}

// A 2026-07-28 request names its version in `_meta`; a 2025-11-25 initialize in its params.
function getDeclaredVersion(message: unknown): ProtocolVersion | undefined {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return undefined;
  const params = (message as { params?: unknown }).params;
  if (typeof params !== 'object' || params === null) return undefined;
  const meta = (params as { _meta?: unknown })._meta;
  const fromMeta = typeof meta === 'object' && meta !== null ? (meta as Record<string, unknown>)['io.modelcontextprotocol/protocolVersion'] : undefined;
  const fromInit = (message as { method?: unknown }).method === 'initialize' ? (params as { protocolVersion?: unknown }).protocolVersion : undefined;
  const value = fromMeta ?? fromInit;
  return PROTOCOL_VERSIONS.find((v) => v === value);
}
