import type { ClientCapabilities, Server } from '@modelcontextprotocol/server';
import { Call } from '../request/call';
import type { VerifiedCaller } from '../../context/auth-context';
import { credentialEnvironmentVariable } from '../../context/credential-env';
import { fixedHeaders } from '../../context/header-source';
import type { ClientInfo, ProtocolEra, TransportKind } from '../../context/request-context';
import type { CompiledTool } from '../../compiled/tool-catalog';
import type { ArgumentLimits } from '../checks/argument-limits';
import { credentialsOf, type CallOrigin } from '../request/call-origin';
import type { CallSite } from '../request/member-scope';

/**
 * A request's origin as a task keeps it, to make the call anywhere, later: plain JSON kept in the
 * task's record while it runs (and removed when it ends). Only the credential headers the tool's
 * toolset declares are kept, never the others.
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
  /** What the client declared it can answer (elicitation, sampling, roots, extensions): a task's tool reads it as the request's. */
  clientCapabilities?: ClientCapabilities;
  limits: ArgumentLimits;
  /** The client's address over HTTP: a task's rate limits and cache keys are the direct call's. */
  address?: string;
}

/** What a task of `tool` keeps of the origin of the request that created it. */
export function storedOrigin(origin: CallOrigin, tool: CompiledTool): TaskOrigin {
  const client = origin.client();
  const capabilities = origin.clientCapabilities?.();
  return {
    era: origin.era,
    transport: origin.transport,
    credentials: Object.fromEntries(credentialsOf(origin, tool.toolset.credentialHeaders)),
    ...(origin.caller && { caller: keptCaller(origin.caller) }),
    ...(client && { client: { name: client.name, version: client.version } }),
    ...(capabilities && { clientCapabilities: capabilities }),
    limits: { ...origin.limits },
    ...(origin.address !== undefined && { address: origin.address }),
  };
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

/** The origin a task's call reads, back from what its record kept: the same transport, era, credentials, caller, client, its capabilities and address. */
export function restoredOrigin(stored: TaskOrigin): CallOrigin {
  const stdio = stored.transport === 'stdio';
  return {
    transport: stored.transport,
    era: stored.era,
    headers: fixedHeaders(stdio ? {} : stored.credentials),
    ...(stdio && { environment: Object.fromEntries(Object.entries(stored.credentials).map(([header, value]) => [credentialEnvironmentVariable(header), value])) }),
    ...(stored.caller && { caller: stored.caller }),
    client: () => stored.client,
    clientCapabilities: () => stored.clientCapabilities,
    limits: stored.limits,
    ...(stored.address !== undefined && { address: stored.address }),
  };
}

/**
 * A task's call, in whichever process runs it: its origin restored from the record (nothing is
 * derived from a request), the task's own signal, and no way to send the client anything on the
 * side (a task reports through its status and asks through its input requests).
 */
export function detachedCall(stored: TaskOrigin, signal: AbortSignal, server: Server): Call {
  const origin = restoredOrigin(stored);
  const site: CallSite = { transport: origin.transport, era: origin.era, headers: origin.headers, environment: origin.environment, limits: origin.limits };
  return Call.detached(site, origin, signal, server);
}
