import { ProtocolError, ProtocolErrorCode, type ServerContext } from '@modelcontextprotocol/server';
import { missingScopes } from '../helpers/scopes';
import { callerOf } from './verified-caller';

/**
 * Refuses a member the request's verified token lacks scopes for. Over HTTP the router has already
 * answered such a request `403 insufficient_scope`; this holds for any other way a request gets here.
 */
export function refuseWithoutScopes(ctx: ServerContext, required: readonly string[], what: string): void {
  if (required.length === 0) return;
  const caller = callerOf(ctx);
  if (!caller) return;
  const missing = missingScopes(required, new Set(caller.scopes));
  if (missing.length > 0) {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `The access token lacks the scope(s) ${missing.join(' ')} that ${what} needs: sign in again asking for them.`);
  }
}
