/** JSON-RPC error codes the transports answer with themselves. */
export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;
/** The server is overloaded or draining: a transient condition the client may retry. */
export const SERVER_BUSY = -32000;
/** 2026-07-28: a request's headers and body disagree (HeaderMismatch). */
export const HEADER_MISMATCH = -32020;

/** The id of a JSON-RPC request, when it has a usable one. */
export function idOf(message: unknown): string | number | null {
  const id = (message as { id?: unknown } | null)?.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}
