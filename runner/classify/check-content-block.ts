// One CallToolResult content block against the ContentBlock union, which is identical in
// 2025-11-25 and 2026-07-28 (ST25/ST26 ContentBlock; WIRE-FACTS §6, S5). 2025-06-18 lacks only
// `icons`; 2025-03-26 has no resource_link and leaves `_meta` and `lastModified` undeclared
// (WIRE-FACTS-LEGACY §3.2, 3.7–3.8, D4–D8). Hand-written, not ajv: the schemas are checked
// elsewhere, and this is the reading a client is expected to apply.
import type { ProtocolVersion } from '../vocabulary/types.js';
import { hasStructuredContent, isAtLeast } from '../vocabulary/version-features.js';
import { isPlainObject } from './json-value.js';

type FieldKind = 'string' | 'integer' | 'array' | 'object';

// Required and optional fields per block type (SJ25/SJ26 TextContent, ImageContent,
// AudioContent, ResourceLink, EmbeddedResource). Extra keys are allowed: no block sets
// additionalProperties false. `format` (uri, byte) is not asserted, as in the schemas' default use.
const BLOCK_FIELDS: Record<string, { required: Record<string, FieldKind>; optional: Record<string, FieldKind> }> = {
  text: { required: { text: 'string' }, optional: {} },
  image: { required: { data: 'string', mimeType: 'string' }, optional: {} },
  audio: { required: { data: 'string', mimeType: 'string' }, optional: {} },
  resource_link: {
    required: { uri: 'string', name: 'string' },
    optional: { title: 'string', description: 'string', mimeType: 'string', size: 'integer', icons: 'array' },
  },
  resource: { required: { resource: 'object' }, optional: {} },
};

/** A problem with one content block under `version`, or undefined when it is a valid ContentBlock. */
export function checkContentBlock(block: unknown, version: ProtocolVersion = '2026-07-28'): string | undefined {
  if (!isPlainObject(block)) return 'content block is not an object';
  const type = block['type'];
  // Resource links, block `_meta` and `lastModified` arrived together in 2025-06-18 (CL0618).
  const since0618 = hasStructuredContent(version);
  const fields = typeof type === 'string' && (type !== 'resource_link' || since0618) ? BLOCK_FIELDS[type] : undefined;
  // tool_use/tool_result exist only for sampling and are not ContentBlocks (S2).
  if (fields === undefined) return `unknown content block type ${JSON.stringify(type)}${type === 'resource_link' ? ` (resource_link arrived in 2025-06-18; this is ${version})` : ''}`;
  for (const [name, kind] of Object.entries(fields.required)) {
    if (!(name in block)) return `${type} block lacks "${name}"`;
    if (!hasKind(block[name], kind)) return `${type} block "${name}" is not ${describeKind(kind)}`;
  }
  for (const [name, kind] of Object.entries(fields.optional)) {
    // `icons` is declared from 2025-11-25; before, it is an unknown key (LEGACY D8).
    if (name === 'icons' && !isAtLeast(version, '2025-11-25')) continue;
    if (name in block && !hasKind(block[name], kind)) return `${type} block "${name}" is not ${describeKind(kind)}`;
  }
  if (type === 'resource_link' && isAtLeast(version, '2025-11-25') && Array.isArray(block['icons'])) {
    // SJ25 Icon: `src` is required (LEGACY D8).
    const bad = block['icons'].findIndex((icon) => !isPlainObject(icon) || typeof icon['src'] !== 'string');
    if (bad !== -1) return `resource_link block icons[${bad}] has no string "src"`;
  }
  if (type === 'resource') {
    // The required fields above made `resource` an object.
    const problem = checkResourceContents(block['resource'] as Record<string, unknown>, since0618);
    if (problem !== undefined) return problem;
  }
  if (since0618 && '_meta' in block && !isPlainObject(block['_meta'])) return `${type} block "_meta" is not an object`;
  if ('annotations' in block) return checkAnnotations(block['annotations'], since0618);
  return undefined;
}

// EmbeddedResource.resource: TextResourceContents {uri, text} or BlobResourceContents {uri, blob}.
// From 2025-06-18 the contents declare `_meta` as an object (LEGACY 3.7, D6).
function checkResourceContents(resource: Record<string, unknown>, metaDeclared: boolean): string | undefined {
  if (typeof resource['uri'] !== 'string') return 'resource block contents lack a string "uri"';
  if (typeof resource['text'] !== 'string' && typeof resource['blob'] !== 'string') {
    return 'resource block contents have neither a string "text" nor a string "blob"';
  }
  if (metaDeclared && '_meta' in resource && !isPlainObject(resource['_meta'])) return 'resource block contents "_meta" is not an object';
  return undefined;
}

// Annotations: audience ⊆ {user, assistant}, priority a number in [0, 1], lastModified a string
// (declared from 2025-06-18; before, any value passes: LEGACY 3.8, D7).
function checkAnnotations(annotations: unknown, lastModifiedDeclared: boolean): string | undefined {
  if (!isPlainObject(annotations)) return 'annotations is not an object';
  const { audience, priority, lastModified } = annotations;
  if (audience !== undefined) {
    if (!Array.isArray(audience) || !audience.every((role) => role === 'user' || role === 'assistant')) {
      return 'annotations.audience is not a list of "user"/"assistant"';
    }
  }
  if (priority !== undefined && (typeof priority !== 'number' || priority < 0 || priority > 1)) {
    return 'annotations.priority is not a number in [0, 1]';
  }
  if (lastModifiedDeclared && lastModified !== undefined && typeof lastModified !== 'string') return 'annotations.lastModified is not a string';
  return undefined;
}

function describeKind(kind: FieldKind): string {
  return kind === 'string' ? 'a string' : `an ${kind}`;
}

function hasKind(value: unknown, kind: FieldKind): boolean {
  switch (kind) {
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return Number.isInteger(value);
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isPlainObject(value);
  }
}
