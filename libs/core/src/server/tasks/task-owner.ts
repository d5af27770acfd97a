import { createHash } from 'node:crypto';
import type { ServerContext } from '@modelcontextprotocol/server';
import { clientAddressOf } from '../../context/client-address';
import { credentialEnvironmentVariable } from '../../context/credential-env';
import { headersOf } from '../../context/header-source';
import type { CallSite } from '../request/member-scope';
import { callerOf } from '../request/verified-caller';

/** Who a task belongs to, and whom it is counted against, as hashes (a store never holds a credential). */
export interface TaskCaller {
  owner: string;
  /** The caller whose unfinished tasks are counted together: its owner, or its address where it has no identity. */
  quota: string;
  /**
   * Whether `tasks/list` may list the owner's tasks: not where the owner is everyone who calls
   * (stateless HTTP with no token, credential or session), whose task ids are bearer secrets.
   */
  listable: boolean;
}

/**
 * Who a task belongs to: the verified token's subject and client; else the credential headers the
 * tool's toolset declares, as sent; else the 2025-era HTTP session; else the connection (a stdio
 * process serves one client; stateless HTTP, everyone). Another caller asking for the task gets
 * the answer an unknown id gets.
 */
export function taskCaller(ctx: ServerContext, site: CallSite, credentialHeaders: readonly string[]): TaskCaller {
  const caller = callerOf(ctx);
  if (caller) return named(digest(['token', caller.subject ?? '', caller.clientId ?? '']));
  const stdio = site.transport === 'stdio';
  const headers = ctx.http?.req ? headersOf(ctx.http.req.headers) : site.headers;
  const credentials = credentialHeaders.map((header) => [header, (stdio ? site.environment?.[credentialEnvironmentVariable(header)] : headers.get(header)) ?? '']);
  if (credentials.some(([, value]) => value !== '')) return named(digest(['credentials', ...credentials.flat()]));
  if (ctx.sessionId) return named(digest(['session', ctx.sessionId]));
  const transport = site.transport ?? (ctx.http?.req ? 'http' : 'memory');
  const owner = digest(['connection', transport]);
  if (transport !== 'http') return named(owner);
  const address = clientAddressOf(ctx.http?.req) ?? site.address;
  return { owner, quota: address === undefined ? owner : digest(['address', address]), listable: false };
}

function named(owner: string): TaskCaller {
  return { owner, quota: owner, listable: true };
}

function digest(parts: string[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url');
}
