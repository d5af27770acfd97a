import type { IncomingMessage } from 'node:http';
import { getOAuthProtectedResourceMetadataUrl, type AuthInfo } from '@modelcontextprotocol/server';
import type { VerifiedCaller } from '../../context/auth-context';
import { missingScopes, sortedScopes } from '../../helpers/scopes';
import type { CatalogSlice } from '../../selection/catalog-slice';
import { CALL_TOOL, DISCOVERY_TOOL_NAMES } from '../../selection/discovery-tools';
import type { ServerDefinition } from '../../server/build-server';
import type { Logger } from '../../server/logging/logger';
import { matchResource } from '../../server/members/resource-match';
import { authInfoOf } from '../../server/request/verified-caller';
import { headerCounts } from '../guards/request-target';
import { ambiguousToken, insufficientScope, invalidToken, missingToken, verificationUnavailable, type AuthRefusal } from './bearer-challenge';
import type { TokenExchanger } from './token-exchanger';
import type { TokenVerifier } from './token-verifier';

/** A request whose token passed: who calls, and the SDK's pass-through `AuthInfo` (without the token). */
export interface Authenticated {
  caller: VerifiedCaller;
  authInfo: AuthInfo;
}

/** The RFC 9728 well-known prefix. */
export const PROTECTED_RESOURCE_PREFIX = '/.well-known/oauth-protected-resource';
const AUTHORIZATION: ReadonlySet<string> = new Set(['authorization']);
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/**
 * One mount's door: every request to it must carry a verified Bearer token for it (its audience),
 * and a request for a member its scopes do not cover is answered `403 insufficient_scope` before
 * anything runs. It also answers the mount's Protected Resource Metadata (RFC 9728).
 */
export class MountAuth {
  #resource: URL | undefined;
  #metadataUrl = '';
  #verify: TokenVerifier | undefined;

  constructor(
    private readonly server: ServerDefinition,
    private readonly path: string,
    private readonly issuer: string,
    /** The `aud` tokens must carry; undefined: the mount's public URL. */
    private readonly audience: string | undefined,
    private readonly verifier: (audience: string) => TokenVerifier,
    private readonly logger: Logger,
    /** `AUTH_OUT_OF_SCOPE=hide`: no 403 naming scopes; the handlers answer as for an unknown name. */
    private readonly hideOutOfScope = false,
    /** With `AUTH_CLIENT_ID`: keeps each caller's token out of reach, for its tools' token exchanges. */
    private readonly exchanger?: TokenExchanger,
  ) {}

  /** Fixes the mount's public URL (PUBLIC_URL, or the bound origin) once the server listens. */
  bind(publicBase: string): void {
    this.#resource = new URL(`${publicBase.replace(/\/+$/, '')}${this.path}`);
    this.#metadataUrl = getOAuthProtectedResourceMetadataUrl(this.#resource);
    this.#verify = this.verifier(this.audience ?? this.#resource.href);
  }

  /** The mount's public URL: the RFC 8707 resource clients ask tokens for. */
  get resource(): string {
    return this.#resource?.href ?? '';
  }

  /** Where its metadata is served on this server: RFC 9728's path for the public URL, and for the local path. */
  get metadataPaths(): string[] {
    const local = `${PROTECTED_RESOURCE_PREFIX}${this.path}`;
    const published = this.#metadataUrl ? new URL(this.#metadataUrl).pathname : local;
    return [...new Set([local, published])];
  }

  /** For the index and the banner: what a client needs to find the authorization server. */
  describe(): { resource: string; metadata: string; issuer: string } {
    return { resource: this.resource, metadata: this.#metadataUrl, issuer: this.issuer };
  }

  /** The RFC 9728 Protected Resource Metadata document. */
  metadata(): Record<string, unknown> {
    return {
      resource: this.resource,
      authorization_servers: [this.issuer],
      scopes_supported: this.server.views.scopes,
      bearer_methods_supported: ['header'],
      resource_name: this.server.name,
    };
  }

  /** The request's verified caller, or why it is refused (logged here, without the token). */
  async authenticate(req: IncomingMessage): Promise<Authenticated | AuthRefusal> {
    const verifier = this.#verify;
    if (!verifier || !this.#resource) return verificationUnavailable();
    if ((headerCounts(req, AUTHORIZATION).get('authorization') ?? 0) > 1) return ambiguousToken(this.#metadataUrl);
    if (tokenInQuery(req.url ?? '')) {
      this.refused('a token in the URL query (access_token)', req);
      return invalidToken(this.#metadataUrl, 'Send the access token in the Authorization header, never in the URL.');
    }
    const header = req.headers.authorization;
    const match = header === undefined ? null : BEARER.exec(header);
    if (!match) return missingToken(this.#metadataUrl);
    const outcome = await verifier.verify(match[1]);
    if (outcome.kind !== 'verified') {
      this.refused(outcome.reason, req, outcome.kind === 'unavailable' ? 503 : 401);
      return outcome.kind === 'unavailable' ? verificationUnavailable() : invalidToken(this.#metadataUrl);
    }
    this.exchanger?.remember(outcome.caller, match[1]!);
    forgetToken(req);
    return { caller: outcome.caller, authInfo: authInfoOf(outcome.caller, outcome.expiresAt, this.#resource, this.hideOutOfScope) };
  }

  /**
   * A `403 insufficient_scope` for a message (or batch) calling a tool, getting a prompt or reading
   * a resource its caller's scopes do not cover, naming every scope needed; undefined when allowed.
   * `view` is the request's selection without scopes, so a tool hidden by scopes is still found.
   */
  scopeRefusal(parsed: object, view: CatalogSlice, caller: VerifiedCaller): AuthRefusal | undefined {
    const granted = new Set(caller.scopes);
    const needed: string[] = [];
    for (const message of Array.isArray(parsed) ? parsed : [parsed]) {
      const required = requiredScopes(message, this.server, view);
      if (required && missingScopes(required, granted).length > 0) needed.push(...required);
    }
    if (needed.length === 0) return undefined;
    const scope = sortedScopes(needed);
    this.logger.info('request refused: insufficient scope', { server: this.server.name, subject: caller.subject, needs: scope.join(' ') });
    return this.hideOutOfScope ? undefined : insufficientScope(this.#metadataUrl, scope);
  }

  private refused(reason: string, req: IncomingMessage, status = 401): void {
    this.logger.warn('access token refused', { server: this.server.name, status, reason, client: req.socket.remoteAddress });
  }
}

/** The scopes one JSON-RPC message needs: those of the tool it calls (directly or through `call_tool`), the prompt it gets, the resource it reads or subscribes to, the argument it completes. */
function requiredScopes(message: unknown, server: ServerDefinition, view: CatalogSlice): readonly string[] | undefined {
  const { method, params } = (message ?? {}) as { method?: unknown; params?: Record<string, unknown> };
  if (method === 'tools/call') return toolScopes(params, view);
  const text = (key: string) => (typeof params?.[key] === 'string' ? (params[key] as string) : undefined);
  if (method === 'prompts/get') return server.catalog.prompts.get(text('name') ?? '')?.toolset.requiredScopes;
  if (method === 'completion/complete') return completionScopes(params?.['ref'], server);
  const uri = method === 'resources/read' || method === 'resources/subscribe' ? text('uri') : undefined;
  return uri === undefined ? undefined : matchResource(server.catalog, uri)?.member.toolset.requiredScopes;
}

/** The scopes of the toolset whose prompt or resource template a `completion/complete` completes an argument of. */
function completionScopes(ref: unknown, server: ServerDefinition): readonly string[] | undefined {
  const { type, name, uri } = (ref ?? {}) as { type?: unknown; name?: unknown; uri?: unknown };
  if (type === 'ref/prompt' && typeof name === 'string') return server.catalog.prompts.get(name)?.toolset.requiredScopes;
  if (type === 'ref/resource' && typeof uri === 'string') return server.catalog.templates.find((t) => t.descriptor.uriTemplate === uri)?.toolset.requiredScopes;
  return undefined;
}

/** The scopes of the tool a `tools/call` runs: in discovery mode `call_tool` runs the one its arguments name. */
function toolScopes(params: Record<string, unknown> | undefined, view: CatalogSlice): readonly string[] | undefined {
  let name = params?.['name'];
  if (typeof name !== 'string') return undefined;
  if (view.selection.mode === 'discovery' && DISCOVERY_TOOL_NAMES.has(name)) {
    if (name !== CALL_TOOL) return undefined;
    name = (params?.['arguments'] as { name?: unknown } | undefined)?.name;
  }
  return typeof name === 'string' ? view.tools.get(name)?.requiredScopes : undefined;
}

/**
 * The token goes no further: nothing after this (the SDK, its sessionful transport, which reads
 * the raw header list, a tool's `context.headers`) can read it.
 */
function forgetToken(req: IncomingMessage): void {
  delete req.headers.authorization;
  const raw = req.rawHeaders;
  for (let i = raw.length - 2; i >= 0; i -= 2) if (raw[i]!.toLowerCase() === 'authorization') raw.splice(i, 2);
}

function tokenInQuery(url: string): boolean {
  const query = url.indexOf('?');
  return query >= 0 && new URLSearchParams(url.slice(query + 1)).has('access_token');
}
