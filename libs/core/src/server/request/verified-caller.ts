import type { AuthInfo, ServerContext } from '@modelcontextprotocol/server';
import type { VerifiedCaller } from '../../context/auth-context';

/** Where the HTTP transport puts the verified caller in the SDK's pass-through `AuthInfo`. */
const CALLER_KEY = 'toolsets:caller';
/** Set when the mount answers out-of-scope calls as unknown names (`AUTH_OUT_OF_SCOPE=hide`). */
const HIDE_KEY = 'toolsets:hide-out-of-scope';

/**
 * The SDK's `AuthInfo` for a verified caller. Its `token` is left empty on purpose: the token is
 * checked at the door and goes no further, so nothing a tool can reach holds it.
 */
export function authInfoOf(caller: VerifiedCaller, expiresAt: number | undefined, resource: URL, hideOutOfScope = false): AuthInfo {
  return { token: '', clientId: caller.clientId ?? '', scopes: [...caller.scopes], expiresAt, resource, extra: { [CALLER_KEY]: caller, [HIDE_KEY]: hideOutOfScope } };
}

/** Whether this request's mount answers a member its token lacks scopes for as an unknown name. */
export function hidesOutOfScope(ctx: ServerContext): boolean {
  return ctx.http?.authInfo?.extra?.[HIDE_KEY] === true;
}

/** The verified caller of this request, when its mount checks tokens. */
export function callerOf(ctx: ServerContext): VerifiedCaller | undefined {
  return callerIn(ctx.http?.authInfo);
}

/** The verified caller `authInfo` carries, if `authInfoOf` made it. */
export function callerIn(authInfo: AuthInfo | undefined): VerifiedCaller | undefined {
  return authInfo?.extra?.[CALLER_KEY] as VerifiedCaller | undefined;
}
