import { createHash } from 'node:crypto';
import type { ServerContext } from '@modelcontextprotocol/server';
import { credentialEnvironmentVariable } from '../../context/credential-env';
import { headersOf } from '../../context/header-source';
import type { CallSite } from '../request/member-scope';
import { callerOf } from '../request/verified-caller';

/**
 * Who a task belongs to, as a hash (a store never holds a credential): the verified token's
 * subject and client; else the credential headers the tool's toolset declares, as sent; else the
 * connection (a stdio process serves one client). Another caller asking for the task gets the
 * answer an unknown id gets.
 */
export function taskOwner(ctx: ServerContext, site: CallSite, credentialHeaders: readonly string[]): string {
  const caller = callerOf(ctx);
  if (caller) return digest(['token', caller.subject ?? '', caller.clientId ?? '']);
  const stdio = site.transport === 'stdio';
  const headers = ctx.http?.req ? headersOf(ctx.http.req.headers) : site.headers;
  const credentials = credentialHeaders.map((header) => [header, (stdio ? site.environment?.[credentialEnvironmentVariable(header)] : headers.get(header)) ?? '']);
  if (credentials.some(([, value]) => value !== '')) return digest(['credentials', ...credentials.flat()]);
  return digest(['connection', site.transport ?? (ctx.http?.req ? 'http' : 'memory')]);
}

function digest(parts: string[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url');
}
