import { ProtocolError, ProtocolErrorCode, type ServerContext } from '@modelcontextprotocol/server';
import { missingScopes } from '../../helpers/scopes';
import { callerOf, hidesOutOfScope } from './verified-caller';

/** Whether the request's verified token (if its mount checks one) holds every scope in `required`. */
export function mayUse(ctx: ServerContext, required: readonly string[]): boolean {
  if (required.length === 0) return true;
  const caller = callerOf(ctx);
  return !caller || missingScopes(required, new Set(caller.scopes)).length === 0;
}

/**
 * Refuses a member the request's verified token lacks scopes for. Over HTTP the router has already
 * answered such a request `403 insufficient_scope`; this holds for any other way a request gets here.
 */
export function refuseWithoutScopes(ctx: ServerContext, required: readonly string[], what: string, unknown: () => Error): void {
  if (required.length === 0) return;
  const caller = callerOf(ctx);
  if (!caller) return;
  const missing = missingScopes(required, new Set(caller.scopes));
  if (missing.length > 0) {
    // AUTH_OUT_OF_SCOPE=hide: the same answer as for a name the server does not have.
    if (hidesOutOfScope(ctx)) throw unknown();
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `The access token lacks the scope(s) ${missing.join(' ')} that ${what} needs: sign in again asking for them.`);
  }
}

/**
 * Refuses a member any one of several scope sets would open (a view: the scopes of any tool that
 * shows it), naming every set, so a client can ask for whichever its user may get.
 */
export function refuseWithoutAnyScopes(ctx: ServerContext, alternatives: readonly { scopes: readonly string[]; by: string }[], what: string, unknown: () => Error): void {
  if (alternatives.length === 0 || alternatives.some((alternative) => mayUse(ctx, alternative.scopes))) return;
  if (!callerOf(ctx)) return;
  if (hidesOutOfScope(ctx)) throw unknown();
  const sets = new Map<string, string[]>();
  for (const { scopes, by } of alternatives) {
    const key = [...scopes].sort().join(' ');
    sets.set(key, [...(sets.get(key) ?? []), by]);
  }
  const options = [...sets].map(([scopes, members]) => `${scopes} (as for ${members.join(', ')})`);
  throw new ProtocolError(ProtocolErrorCode.InvalidParams, `The access token lacks a scope ${what} needs: any one of ${options.join('; or ')} would do. Sign in again asking for one of them.`);
}
