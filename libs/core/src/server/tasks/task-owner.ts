import { createHash } from 'node:crypto';
import { credentialsOf, type CallOrigin } from '../request/call-origin';

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
export function taskCaller(origin: CallOrigin, credentialHeaders: readonly string[]): TaskCaller {
  const { caller } = origin;
  if (caller) return named(digest(['token', caller.subject ?? '', caller.clientId ?? '']));
  const sent = new Map(credentialsOf(origin, credentialHeaders));
  if (sent.size > 0) return named(digest(['credentials', ...credentialHeaders.flatMap((header) => [header, sent.get(header) ?? ''])]));
  if (origin.sessionId) return named(digest(['session', origin.sessionId]));
  const owner = digest(['connection', origin.transport]);
  if (origin.transport !== 'http') return named(owner);
  return { owner, quota: origin.address === undefined ? owner : digest(['address', origin.address]), listable: false };
}

/** Whether `record` belongs to the caller of `origin` (asked by the task's own tool's credentials). */
export function isOwnTask(record: { owner: string; tool: string }, origin: CallOrigin, tools: ReadonlyMap<string, { toolset: { credentialHeaders: readonly string[] } }>): boolean {
  const tool = tools.get(record.tool);
  return tool !== undefined && record.owner === taskCaller(origin, tool.toolset.credentialHeaders).owner;
}

function named(owner: string): TaskCaller {
  return { owner, quota: owner, listable: true };
}

function digest(parts: string[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url');
}
