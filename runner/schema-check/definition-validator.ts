// The core a schema validator offers: validate a value against one `$defs` name of a loaded
// version. message-checks.ts and detect.ts build on this interface and validator.ts implements
// it, so neither needs to import validator.ts (which imports them).
import { RunnerError } from '../util/errors.js';
import type { ProtocolVersion } from '../vocabulary/types.js';

export interface DefinitionResult {
  valid: boolean;
  /** Short lines like `/result/content: must be array`, at most `maxErrors`. */
  errors: string[];
}

export interface DefinitionValidator {
  /** The versions whose schema was loaded. */
  readonly versions: readonly ProtocolVersion[];
  hasDefinition(version: ProtocolVersion, definition: string): boolean;
  listDefinitions(version: ProtocolVersion): string[];
  /** The raw `$defs` entry, or undefined. */
  getDefinitionSchema(version: ProtocolVersion, definition: string): unknown;
  /** Validates a value against `#/$defs/<definition>`; an unknown definition throws SchemaDefinitionError. */
  validateDefinition(version: ProtocolVersion, definition: string, value: unknown): DefinitionResult;
}

/** A definition name that the version's schema does not have. */
export class SchemaDefinitionError extends RunnerError {
  constructor(versions: string, definition: string, known: string[]) {
    const near = suggest(definition, known);
    super('MEM_SCHEMA_DEFINITION', `--def ${definition}: no such definition in the ${versions} schema${near ? `; did you mean ${near}?` : ''}`);
  }
}

function suggest(name: string, known: string[]): string | undefined {
  const lower = name.toLowerCase();
  const exact = known.find((k) => k.toLowerCase() === lower);
  if (exact) return exact;
  let best: { name: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = editDistance(lower, candidate.toLowerCase());
    if (distance <= 3 && (!best || distance < best.distance)) best = { name: candidate, distance };
  }
  return best?.name;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}
