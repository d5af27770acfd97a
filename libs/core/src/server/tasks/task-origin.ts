import { CLIENT_INFO_META_KEY, type Server, type ServerContext } from '@modelcontextprotocol/server';
import type { VerifiedCaller } from '../../context/auth-context';
import { clientAddressOf } from '../../context/client-address';
import { credentialEnvironmentVariable } from '../../context/credential-env';
import { fixedHeaders, headersOf } from '../../context/header-source';
import type { ClientInfo, ProtocolEra, TransportKind } from '../../context/request-context';
import type { CompiledTool } from '../../compiled/tool-catalog';
import type { ArgumentLimits } from '../checks/argument-limits';
import type { CallSite } from '../request/member-scope';
import { authInfoOf, callerOf } from '../request/verified-caller';

/**
 * What a task's call needs of the request that created it, to run anywhere, later: plain JSON
 * kept in the task's record while it runs (and removed when it ends). Only the credential headers
 * the tool's toolset declares are kept, never the others.
 */
export interface TaskOrigin {
  era: ProtocolEra;
  transport: TransportKind;
  /** The declared credential headers the request sent, by lower-case name. */
  credentials: Record<string, string>;
  /**
   * Who the verified token named: what a worker needs to act as the caller (subject, client,
   * scopes, and the issuer as the one claim kept), never the rest of the token's payload.
   */
  caller?: VerifiedCaller;
  client?: ClientInfo;
  limits: ArgumentLimits;
  /** The client's address over HTTP: a task's rate limits and cache keys are the direct call's. */
  address?: string;
}

/** The origin of a call of `tool` made by this request; `server` answered it (a 2025-era client introduced itself to it). */
export function originOf(ctx: ServerContext, site: CallSite, tool: CompiledTool, server: Server): TaskOrigin {
  const transport = site.transport ?? (ctx.http?.req ? 'http' : 'memory');
  const credentials = declaredCredentials(ctx, site, tool, transport);
  const caller = callerOf(ctx);
  // The client as the call's RequestContext sees it: a 2026-07-28 request names it, a 2025-era one introduced itself at initialize.
  const client = (ctx.mcpReq.envelope?.[CLIENT_INFO_META_KEY as never] as ClientInfo | undefined) ?? server.getClientVersion();
  const address = clientAddressOf(ctx.http?.req) ?? site.address;
  return {
    era: site.era ?? (ctx.mcpReq.envelope ? 'modern' : 'legacy'),
    transport,
    credentials,
    ...(caller && { caller: keptCaller(caller) }),
    ...(client && { client: { name: client.name, version: client.version } }),
    limits: { ...site.limits },
    ...(address !== undefined && { address }),
  };
}

/** The credential headers `tool`'s toolset declares, as this request sent them (over stdio: from the environment). */
function declaredCredentials(ctx: ServerContext, site: CallSite, tool: CompiledTool, transport: TransportKind): Record<string, string> {
  const headers = ctx.http?.req ? headersOf(ctx.http.req.headers) : site.headers;
  const credentials: Record<string, string> = {};
  for (const header of tool.toolset.credentialHeaders) {
    const value = transport === 'stdio' ? site.environment?.[credentialEnvironmentVariable(header)] : headers.get(header);
    if (value) credentials[header] = value;
  }
  return credentials;
}

/** The caller as a task keeps it: the token's e-mail, names and other claims stay out of the store. */
function keptCaller(caller: VerifiedCaller): VerifiedCaller {
  const issuer = caller.claims['iss'];
  return {
    ...(caller.subject !== undefined && { subject: caller.subject }),
    ...(caller.clientId !== undefined && { clientId: caller.clientId }),
    scopes: [...caller.scopes],
    claims: typeof issuer === 'string' ? { iss: issuer } : {},
  };
}

/** Stands in for a verified caller's token resource in a task's call: the token is not kept. */
const TASK_RESOURCE = new URL('urn:toolsets:task');

/**
 * Where a task's call runs, rebuilt from its origin: the same transport, era, credentials, caller
 * and client, the task's own signal, and no way to send the client anything on the side (a task
 * reports through its status).
 */
export function detachedCall(origin: TaskOrigin, signal: AbortSignal): { site: CallSite; ctx: ServerContext } {
  const stdio = origin.transport === 'stdio';
  const site: CallSite = {
    transport: origin.transport,
    era: origin.era,
    headers: fixedHeaders(stdio ? {} : origin.credentials),
    environment: stdio ? Object.fromEntries(Object.entries(origin.credentials).map(([header, value]) => [credentialEnvironmentVariable(header), value])) : undefined,
    limits: origin.limits,
    ...(origin.address !== undefined && { address: origin.address }),
  };
  const quiet = async () => undefined;
  const unreachable = async () => {
    throw new Error('A task asks the client through its own input requests.');
  };
  const ctx = {
    mcpReq: {
      id: 0,
      method: 'tools/call',
      signal,
      // The client rides in the envelope in both eras (the era itself is the site's): the call's RequestContext reads it there.
      ...(origin.client && { envelope: { [CLIENT_INFO_META_KEY]: origin.client } }),
      notify: quiet,
      log: quiet,
      send: unreachable,
      elicitInput: unreachable,
      requestSampling: unreachable,
    },
    ...(origin.caller && { http: { authInfo: authInfoOf(origin.caller, undefined, TASK_RESOURCE) } }),
  } as unknown as ServerContext;
  return { site, ctx };
}
