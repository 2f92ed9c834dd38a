// What the mock server records of the wire: every HTTP exchange in arrival order, as the judge and
// the reports read it. A leaf module (it imports nothing); runner/vocabulary/types.ts re-exports it.

/** One HTTP exchange as seen by the mock server, in arrival order. */
export interface RecordedExchange {
  seq: number;
  /** Milliseconds since the server started. */
  at: number;
  request: RecordedRequest;
  response: RecordedResponse | undefined;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  /** The parsed JSON-RPC message, when the body was a JSON object. */
  rpc?: { method?: string; id?: unknown; params?: unknown; isNotification: boolean; isResponse: boolean };
  /** Index of the script step this request consumed, if it consumed one. */
  scriptStep?: number;
}

export interface RecordedResponse {
  status: number | undefined;
  headers: Record<string, string>;
  /** Bytes written after the headers, as UTF-8 text. */
  body: string;
  /** For SSE: each event as written. */
  events?: { at: number; text: string }[];
  /** How the response ended on the socket. */
  ending: 'complete' | 'reset' | 'hang' | 'client_closed';
  /** Milliseconds since the server started, when the response was finished. */
  endedAt?: number;
}

export interface Recording {
  url: string;
  exchanges: RecordedExchange[];
}
