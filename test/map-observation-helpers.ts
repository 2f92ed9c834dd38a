// Typed access to the plain-ESM mapping contract (runner/targets/sdk/map-observation.mjs) for tests:
// the shapes of docs/adapter-observation.md, and a mapper bound to one target kind.
export interface MapContext {
  protocolVersion: string;
  /** HTTP status of each tools/call POST of the call, in order; 0 = no status. */
  toolCallStatuses: number[];
  /** JSON-RPC error codes the server sent in answer to the call's tools/call ids. */
  peerErrorCodes: number[];
}

export type MapResult = { verdict: { outcome: string; status?: number; code?: number; detail: string } } | { gap: string } | { none: string };

interface MapObservationModule {
  mapObservation(kind: string, call: unknown, context: MapContext): MapResult;
  MAPPED_KINDS: readonly string[];
}

// A literal path, so `vitest related` selects the tests that use this helper for the module (`as string`: it has no type declarations).
export const mapping = (await import('../runner/targets/sdk/map-observation.mjs' as string)) as MapObservationModule;

/** A context with no wire facts: no status seen, no peer error code. */
export function context(overrides: Partial<MapContext> = {}): MapContext {
  return { protocolVersion: '2025-11-25', toolCallStatuses: [], peerErrorCodes: [], ...overrides };
}

/** `mapObservation` bound to one target kind. */
export function mapFor(kind: string): (call: unknown, given?: Partial<MapContext>) => MapResult {
  return (call, given) => mapping.mapObservation(kind, call, context(given));
}

interface ObserveModule {
  observeThrown(error: unknown, classes?: Record<string, unknown>): Record<string, unknown>;
  collectErrorClasses(moduleNamespace: unknown): Record<string, unknown>;
}
export const observe = (await import('../runner/targets/sdk/observe-call.mjs' as string)) as ObserveModule;

/** What the worker records of a thrown error: `{ threw }` against the library's exported classes. */
export function threw(error: unknown, ...modules: unknown[]): { threw: Record<string, unknown> } {
  const classes = Object.assign({}, ...modules.map((namespace) => observe.collectErrorClasses(namespace))) as Record<string, unknown>;
  return { threw: observe.observeThrown(error, classes) };
}

/** The outcome (with status and code when set) a mapping gave, or its kind when it gave none. */
export function brief(result: MapResult): Record<string, unknown> {
  if ('verdict' in result) return { outcome: result.verdict.outcome, ...(result.verdict.status !== undefined ? { status: result.verdict.status } : {}), ...(result.verdict.code !== undefined ? { code: result.verdict.code } : {}) };
  return 'gap' in result ? { gap: true } : { none: true };
}
