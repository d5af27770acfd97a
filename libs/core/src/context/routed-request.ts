import type { CatalogSlice } from '../selection/catalog-slice';

/**
 * What the HTTP transport decided about a request before the SDK saw it: the peer's address, the
 * view its query and headers select, and the part of that view its verified token may see. Kept
 * beside the request object (the Node message, then the fetch `Request` made from it), so the
 * server the request reaches reads the router's decision instead of making it again.
 */
export interface Routing {
  /** The socket's remote address. */
  readonly address?: string;
  /** The view the request's query and headers select (`?toolsets=`, `X-MCP-Toolsets`, …). */
  readonly selected?: CatalogSlice;
  /** `selected` narrowed to what the request's verified token's scopes allow (`selected` where no token is checked). */
  readonly seen?: CatalogSlice;
}

const routings = new WeakMap<object, Routing>();

/** Adds `routing` to what is known of `request` (a Node `IncomingMessage` or a fetch `Request`). */
export function rememberRouting(request: object, routing: Routing): void {
  const known = routings.get(request);
  routings.set(request, known ? { ...known, ...routing } : routing);
}

/** What the transport recorded of `request`, if anything. */
export function routingOf(request: object | undefined): Routing | undefined {
  return request ? routings.get(request) : undefined;
}
