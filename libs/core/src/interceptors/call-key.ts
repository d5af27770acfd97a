import type { CallCaller, ToolCall } from '../metadata/tool-interceptor';

/**
 * What tells callers apart for a rate limit or a cache: the verified token's `subject` (with its
 * issuer), a hash of the declared `credential` values, the client's IP `address`, or `caller`:
 * all of these together, with the mount the call came through; or a function of the call.
 */
export type CallerKey = 'caller' | 'subject' | 'credential' | 'address' | ((call: ToolCall) => string);

/** The key of `call`'s caller; calls with nothing to tell them apart share `anonymous`. */
export function callerKeyOf(call: ToolCall, key: CallerKey): string {
  if (typeof key === 'function') return key(call);
  const { caller } = call;
  switch (key) {
    case 'subject':
      return caller.subject === undefined ? 'anonymous' : `subject:${JSON.stringify([caller.issuer ?? null, caller.subject])}`;
    case 'credential':
      return caller.credentialHash === undefined ? 'anonymous' : `credential:${caller.credentialHash}`;
    case 'address':
      return caller.address === undefined ? 'anonymous' : `address:${caller.address}`;
    default:
      return identityOf(caller);
  }
}

/**
 * Everything that tells a caller apart, together: the mount (a token-checked one and an open one
 * never share), whether a token was verified, its issuer, subject and client, and the credential
 * values' hash; the address only when none of those names the caller.
 */
function identityOf(caller: CallCaller): string {
  const parts = [caller.mount, caller.authenticated, caller.issuer ?? null, caller.subject ?? null, caller.clientId ?? null, caller.credentialHash ?? null];
  const named = caller.subject !== undefined || caller.clientId !== undefined || caller.credentialHash !== undefined;
  return `caller:${JSON.stringify(named ? parts : [...parts, caller.address ?? null])}`;
}

/**
 * The keys a rate limit charges a call to. By `caller`, a caller without a verified token is also
 * charged to its address: credential values it makes up on each call do not escape the limit.
 */
export function chargedKeysOf(call: ToolCall, key: CallerKey): string[] {
  const own = callerKeyOf(call, key);
  const { caller } = call;
  if (key !== 'caller' || caller.authenticated || caller.address === undefined) return [own];
  return [own, `address:${caller.address}`];
}

export function isCallerKey(value: unknown): value is CallerKey {
  return typeof value === 'function' || value === 'caller' || value === 'subject' || value === 'credential' || value === 'address';
}

/** JSON with object keys sorted at every level: the same arguments give the same text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    return `{${Object.keys(record)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
