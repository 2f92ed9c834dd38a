// The shapes the client-library mappers (runner/targets/sdk/**/map-*-outcome.mjs, plain ESM) take and
// give, typed once for their tests.

/** What a worker records of one cell's wire while the library runs (the mappers read it). */
export interface MapperCellLog {
  statuses: number[];
  notes: string[];
  /** JSON-RPC error codes the server sent, for mappers that tell a peer error from a library one. */
  peerErrorCodes?: Set<number>;
}

/** A mapper's verdict; null when it cannot tell. */
export type MappedVerdict = { outcome: string; status?: number; code?: number; detail: string } | null;

/** The v2 client's (`@modelcontextprotocol/client`) error classes the mappers test against. */
export interface V2ErrorClasses {
  SdkError: new (code: string, message: string, data?: unknown) => Error;
  SdkHttpError: new (code: string, message: string, data?: unknown) => Error;
  ProtocolError: new (code: number, message: string, data?: unknown) => Error;
}
