// The specification references cases and checks cite ("T25 § Sending Messages to the Server,
// item 6", "ST26 CallToolResult"): each alias names one page of the specification repository, and
// every report links it at the pinned commit, so no reader needs the project's abbreviations.

/** The upstream repository and the commit the schemas are pinned at (schemas/pins.json; a test keeps them equal). */
export const SPEC_REPOSITORY = 'modelcontextprotocol/modelcontextprotocol';
export const SPEC_COMMIT = 'b0f60ba5409db7a6582440a7b473cc0398890f15';

interface SpecDocument {
  title: string;
  /** Path in the specification repository. */
  path: string;
}

const V0326 = 'docs/specification/2025-03-26';
const V0618 = 'docs/specification/2025-06-18';
const V25 = 'docs/specification/2025-11-25';
const V26 = 'docs/specification/2026-07-28';

// Every alias the case table and the runner cite, with the page it stands for.
const SPEC_DOCUMENTS: Record<string, SpecDocument> = {
  T0326: { title: 'MCP 2025-03-26: Transports (Streamable HTTP)', path: `${V0326}/basic/transports.mdx` },
  B0326: { title: 'MCP 2025-03-26: Base protocol overview', path: `${V0326}/basic/index.mdx` },
  L0326: { title: 'MCP 2025-03-26: Lifecycle', path: `${V0326}/basic/lifecycle.mdx` },
  TL0326: { title: 'MCP 2025-03-26: Tools', path: `${V0326}/server/tools.mdx` },
  CX0326: { title: 'MCP 2025-03-26: Cancellation', path: `${V0326}/basic/utilities/cancellation.mdx` },
  PG0326: { title: 'MCP 2025-03-26: Progress', path: `${V0326}/basic/utilities/progress.mdx` },
  LG0326: { title: 'MCP 2025-03-26: Logging', path: `${V0326}/server/utilities/logging.mdx` },
  SM0326: { title: 'MCP 2025-03-26: Sampling', path: `${V0326}/client/sampling.mdx` },
  RT0326: { title: 'MCP 2025-03-26: Roots', path: `${V0326}/client/roots.mdx` },
  RS0326: { title: 'MCP 2025-03-26: Resources', path: `${V0326}/server/resources.mdx` },
  AU0326: { title: 'MCP 2025-03-26: Authorization', path: `${V0326}/basic/authorization.mdx` },
  CL0326: { title: 'MCP 2025-03-26: Changelog', path: `${V0326}/changelog.mdx` },
  S0326: { title: 'MCP 2025-03-26 schema (JSON Schema)', path: 'schema/2025-03-26/schema.json' },
  ST0326: { title: 'MCP 2025-03-26 schema (TypeScript)', path: 'schema/2025-03-26/schema.ts' },
  T0618: { title: 'MCP 2025-06-18: Transports (Streamable HTTP)', path: `${V0618}/basic/transports.mdx` },
  B0618: { title: 'MCP 2025-06-18: Base protocol overview', path: `${V0618}/basic/index.mdx` },
  L0618: { title: 'MCP 2025-06-18: Lifecycle', path: `${V0618}/basic/lifecycle.mdx` },
  TL0618: { title: 'MCP 2025-06-18: Tools', path: `${V0618}/server/tools.mdx` },
  CX0618: { title: 'MCP 2025-06-18: Cancellation', path: `${V0618}/basic/utilities/cancellation.mdx` },
  PG0618: { title: 'MCP 2025-06-18: Progress', path: `${V0618}/basic/utilities/progress.mdx` },
  LG0618: { title: 'MCP 2025-06-18: Logging', path: `${V0618}/server/utilities/logging.mdx` },
  SM0618: { title: 'MCP 2025-06-18: Sampling', path: `${V0618}/client/sampling.mdx` },
  RT0618: { title: 'MCP 2025-06-18: Roots', path: `${V0618}/client/roots.mdx` },
  RS0618: { title: 'MCP 2025-06-18: Resources', path: `${V0618}/server/resources.mdx` },
  AU0618: { title: 'MCP 2025-06-18: Authorization', path: `${V0618}/basic/authorization.mdx` },
  CL0618: { title: 'MCP 2025-06-18: Changelog', path: `${V0618}/changelog.mdx` },
  S0618: { title: 'MCP 2025-06-18 schema (JSON Schema)', path: 'schema/2025-06-18/schema.json' },
  ST0618: { title: 'MCP 2025-06-18 schema (TypeScript)', path: 'schema/2025-06-18/schema.ts' },
  EL0618: { title: 'MCP 2025-06-18: Elicitation', path: `${V0618}/client/elicitation.mdx` },
  CL25: { title: 'MCP 2025-11-25: Changelog', path: `${V25}/changelog.mdx` },
  T25: { title: 'MCP 2025-11-25: Transports (Streamable HTTP)', path: `${V25}/basic/transports.mdx` },
  B25: { title: 'MCP 2025-11-25: Base protocol overview', path: `${V25}/basic/index.mdx` },
  L25: { title: 'MCP 2025-11-25: Lifecycle', path: `${V25}/basic/lifecycle.mdx` },
  TL25: { title: 'MCP 2025-11-25: Tools', path: `${V25}/server/tools.mdx` },
  CX25: { title: 'MCP 2025-11-25: Cancellation', path: `${V25}/basic/utilities/cancellation.mdx` },
  PG25: { title: 'MCP 2025-11-25: Progress', path: `${V25}/basic/utilities/progress.mdx` },
  EL25: { title: 'MCP 2025-11-25: Elicitation', path: `${V25}/client/elicitation.mdx` },
  AU25: { title: 'MCP 2025-11-25: Authorization', path: `${V25}/basic/authorization.mdx` },
  RS25: { title: 'MCP 2025-11-25: Resources', path: `${V25}/server/resources.mdx` },
  TK25: { title: 'MCP 2025-11-25: Tasks', path: `${V25}/basic/utilities/tasks.mdx` },
  RT25: { title: 'MCP 2025-11-25: Roots', path: `${V25}/client/roots.mdx` },
  SM25: { title: 'MCP 2025-11-25: Sampling', path: `${V25}/client/sampling.mdx` },
  ST25: { title: 'MCP 2025-11-25 schema (TypeScript)', path: 'schema/2025-11-25/schema.ts' },
  SJ25: { title: 'MCP 2025-11-25 schema (JSON Schema)', path: 'schema/2025-11-25/schema.json' },
  SH26: { title: 'MCP 2026-07-28: Streamable HTTP transport', path: `${V26}/basic/transports/streamable-http.mdx` },
  TI26: { title: 'MCP 2026-07-28: Transports', path: `${V26}/basic/transports/index.mdx` },
  B26: { title: 'MCP 2026-07-28: Base protocol overview', path: `${V26}/basic/index.mdx` },
  V26: { title: 'MCP 2026-07-28: Versioning', path: `${V26}/basic/versioning.mdx` },
  TL26: { title: 'MCP 2026-07-28: Tools', path: `${V26}/server/tools.mdx` },
  CX26: { title: 'MCP 2026-07-28: Cancellation', path: `${V26}/basic/patterns/cancellation.mdx` },
  PG26: { title: 'MCP 2026-07-28: Progress', path: `${V26}/basic/patterns/progress.mdx` },
  EL26: { title: 'MCP 2026-07-28: Elicitation', path: `${V26}/client/elicitation.mdx` },
  AU26: { title: 'MCP 2026-07-28: Authorization', path: `${V26}/basic/authorization/index.mdx` },
  RS26: { title: 'MCP 2026-07-28: Resources', path: `${V26}/server/resources.mdx` },
  MR26: { title: 'MCP 2026-07-28: Multi round-trip requests', path: `${V26}/basic/patterns/mrtr.mdx` },
  PI26: { title: 'MCP 2026-07-28: Patterns', path: `${V26}/basic/patterns/index.mdx` },
  CL26: { title: 'MCP 2026-07-28: Changelog', path: `${V26}/changelog.mdx` },
  DS26: { title: 'MCP 2026-07-28: Discovery', path: `${V26}/server/discover.mdx` },
  LG26: { title: 'MCP 2026-07-28: Logging', path: `${V26}/server/utilities/logging.mdx` },
  ST26: { title: 'MCP 2026-07-28 schema (TypeScript)', path: 'schema/2026-07-28/schema.ts' },
  SJ26: { title: 'MCP 2026-07-28 schema (JSON Schema)', path: 'schema/2026-07-28/schema.json' },
};

export interface SpecReference {
  /** The alias, e.g. `T25`. */
  id: string;
  title: string;
  /** The page at the pinned commit. */
  url: string;
}

/** Anything that looks like an alias: letters, then a version's short form (0326, 0618, 25, 26). */
const ALIAS = /\b([A-Z]{1,3}(?:0326|0618|25|26))\b/g;

/** The page an alias stands for, or undefined for an unknown one. */
export function getSpecReference(id: string): SpecReference | undefined {
  const document = Object.hasOwn(SPEC_DOCUMENTS, id) ? SPEC_DOCUMENTS[id] : undefined;
  if (!document) return undefined;
  // One URL string per alias: a report of 100,000 cases citing two each made 200,000 copies of it.
  let url = specUrls.get(id);
  if (url === undefined) specUrls.set(id, (url = `https://github.com/${SPEC_REPOSITORY}/blob/${SPEC_COMMIT}/${document.path}`));
  return { id, title: document.title, url };
}

const specUrls = new Map<string, string>();

/** The alias a reference starts with ("T25 § Sending …" → T25; "ST25/ST26 Result" → ST25). */
export function resolveSpecReference(ref: string): SpecReference | undefined {
  const id = /^\s*([A-Z]{1,3}(?:0326|0618|25|26))\b/.exec(ref)?.[1];
  return id === undefined ? undefined : getSpecReference(id);
}

/** Every alias-like word in a text, in order of first appearance (known or not). */
export function findSpecAliases(text: string): string[] {
  return [...new Set([...text.matchAll(ALIAS)].map((match) => match[1]!))];
}

/** The known references cited anywhere in some texts, each once, in order of first appearance. */
export function listSpecReferences(texts: Iterable<string>): SpecReference[] {
  const seen = new Map<string, SpecReference>();
  for (const text of texts) {
    for (const id of findSpecAliases(text)) {
      if (seen.has(id)) continue;
      const reference = getSpecReference(id);
      if (reference) seen.set(id, reference);
    }
  }
  return [...seen.values()];
}
