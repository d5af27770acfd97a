import { CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, type ClientCapabilities, type Server, type ServerContext } from '@modelcontextprotocol/server';
import type { VerifiedCaller } from '../../context/auth-context';
import { routingOf } from '../../context/routed-request';
import { credentialEnvironmentVariable } from '../../context/credential-env';
import { headersOf } from '../../context/header-source';
import type { ClientInfo, HeaderSource, ProtocolEra, TransportKind } from '../../context/request-context';
import type { ArgumentLimits } from '../checks/argument-limits';
import type { CatalogSlice } from '../../selection/catalog-slice';
import type { CallSite, ServingSite } from './call-site';
import { callerOf } from './verified-caller';

/**
 * The facts of one request that every part of its handling reads: who calls (the verified token,
 * the client, its address, its 2025-era session), over which transport, in which era, with which
 * headers (credentials among them) and limits, and what of the catalog it may see. Made once per
 * request, with its `Call`, and read everywhere: the RequestContext, the interceptors' caller, a
 * task's owner and the record a task keeps, from which its call gets the same origin back.
 */
export interface CallOrigin {
  readonly transport: TransportKind;
  readonly era: ProtocolEra;
  readonly headers: HeaderSource;
  /** Where stdio reads credentials (`X_DEMO_TOKEN` for `x-demo-token`). */
  readonly environment?: Readonly<Record<string, string | undefined>>;
  /** The verified access token's caller, on a mount that checks tokens. */
  readonly caller?: VerifiedCaller;
  /** The client: as a 2026-07-28 request names it, or as a 2025-era client introduced itself at initialize. */
  client(): ClientInfo | undefined;
  /** What the client declared it supports: in the 2026-07-28 request's envelope, or at a 2025-era initialize. */
  clientCapabilities?(): ClientCapabilities | undefined;
  readonly limits: Readonly<ArgumentLimits>;
  /** The client's address over HTTP. */
  readonly address?: string;
  /** The 2025-era HTTP session the request came in. */
  readonly sessionId?: string;
  /**
   * What the request may see of the catalog: the view the HTTP router chose for it (query, headers,
   * the verified token's scopes), else its server's view narrowed to the token's scopes. Absent for
   * a task's call, whose tool was chosen when the task was made.
   */
  readonly view?: CatalogSlice;
}

/**
 * What a request `ctx` may see of the catalog (`CallOrigin.view`): the router's choice, else its
 * server's view narrowed to its token's scopes. For the lists, which need nothing else of the origin.
 */
export function seenSlice(site: ServingSite, ctx: ServerContext): CatalogSlice {
  return routingOf(ctx.http?.req)?.seen ?? scoped(site, callerOf(ctx)) ?? site.served.view;
}

/** The values of the declared credential headers the origin carries (from the environment over stdio), absent ones left out. */
export function credentialsOf(origin: CallOrigin, credentialHeaders: readonly string[]): [header: string, value: string][] {
  const found: [string, string][] = [];
  for (const header of credentialHeaders) {
    const value = origin.transport === 'stdio' ? origin.environment?.[credentialEnvironmentVariable(header)] : origin.headers.get(header);
    if (value) found.push([header, value]);
  }
  return found;
}

/**
 * The origin of a 2026-07-28 HTTP request the transport answers itself, without an SDK server
 * (a `subscriptions/listen` for tasks): its headers, verified caller, client and address.
 */
export function httpOrigin(request: Request, caller: VerifiedCaller | undefined, envelope: Record<string, unknown> | undefined, limits: Readonly<ArgumentLimits>): CallOrigin {
  const address = routingOf(request)?.address;
  const client = envelope?.[CLIENT_INFO_META_KEY] as ClientInfo | undefined;
  return {
    transport: 'http',
    era: 'modern',
    headers: headersOf(request.headers),
    ...(caller && { caller }),
    client: () => client,
    clientCapabilities: () => envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined,
    limits,
    ...(address !== undefined && { address }),
  };
}

/** The origin of the request `ctx` (a handler's `Call` makes it once, at its entry). */
export function originOfRequest(site: CallSite, ctx: ServerContext, server: Server): CallOrigin {
  const request = ctx.http?.req;
  const caller = callerOf(ctx);
  const routing = routingOf(request);
  const address = routing?.address;
  const view = routing?.seen ?? scoped(site, caller);
  let client: ClientInfo | undefined | null = null;
  return {
    transport: site.transport ?? (request ? 'http' : 'memory'),
    era: site.era ?? (ctx.mcpReq.envelope ? 'modern' : 'legacy'),
    headers: request ? headersOf(request.headers) : site.headers,
    ...(site.environment && { environment: site.environment }),
    ...(caller && { caller }),
    // Read when asked: most calls never ask.
    client: () => (client === null ? (client = (ctx.mcpReq.envelope?.[CLIENT_INFO_META_KEY as never] as ClientInfo | undefined) ?? server.getClientVersion()) : client),
    clientCapabilities: () => (ctx.mcpReq.envelope ? (ctx.mcpReq.envelope[CLIENT_CAPABILITIES_META_KEY as never] as ClientCapabilities | undefined) : server.getClientCapabilities()),
    limits: site.limits,
    ...(address !== undefined && { address }),
    ...(ctx.sessionId && { sessionId: ctx.sessionId }),
    ...(view && { view }),
  };
}

/** The site's view narrowed to what a verified caller's scopes allow (a 2025-era session outlives a token). */
function scoped(site: CallSite, caller: VerifiedCaller | undefined): CatalogSlice | undefined {
  if (!site.served) return undefined;
  return caller ? site.served.views.view(site.served.view.selection, caller.scopes) : site.served.view;
}
