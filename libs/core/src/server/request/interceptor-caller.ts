import { createHash } from 'node:crypto';
import type { ServerContext } from '@modelcontextprotocol/server';
import { clientAddressOf } from '../../context/client-address';
import { credentialEnvironmentVariable } from '../../context/credential-env';
import type { HeaderSource, TransportKind } from '../../context/request-context';
import type { CompiledToolset } from '../../compiled/tool-catalog';
import type { CallCaller } from '../../metadata/tool-interceptor';
import { callerOf } from './verified-caller';

/**
 * Who makes this call, for interceptors: the verified token's subject, which declared credentials
 * it sent (by name, and a hash of their values to key on), and its address over HTTP.
 */
export function interceptorCaller(
  mount: string,
  ctx: ServerContext,
  toolset: CompiledToolset,
  { transport, headers, environment }: { transport: TransportKind; headers: HeaderSource; environment?: Readonly<Record<string, string | undefined>> },
  /** The address where no HTTP request of this call brings one (a task's call keeps its creator's). */
  siteAddress?: string,
): CallCaller {
  const verified = callerOf(ctx);
  const hash = createHash('sha256');
  const credentials: string[] = [];
  for (const header of toolset.credentialHeaders) {
    const value = transport === 'stdio' ? environment?.[credentialEnvironmentVariable(header)] : headers.get(header);
    if (!value) continue;
    credentials.push(header);
    hash.update(`${header}\n${value}\n`);
  }
  const address = clientAddressOf(ctx.http?.req) ?? siteAddress;
  const issuer = verified?.claims['iss'];
  return {
    mount,
    authenticated: verified !== undefined,
    ...(typeof issuer === 'string' && { issuer }),
    ...(verified?.subject !== undefined && { subject: verified.subject }),
    ...(verified?.clientId !== undefined && { clientId: verified.clientId }),
    credentials,
    ...(credentials.length > 0 && { credentialHash: hash.digest('hex') }),
    ...(address !== undefined && { address }),
  };
}
