import type { ToolCall } from '../metadata/tool-interceptor';

/**
 * What tells callers apart for a rate limit or a cache: the verified token's `subject`, a hash of
 * the declared `credential` values, the client's IP `address`, or `caller`, the first of these the
 * call has; or a function of the call.
 */
export type CallerKey = 'caller' | 'subject' | 'credential' | 'address' | ((call: ToolCall) => string);

/** The key of `call`'s caller; calls with nothing to tell them apart share `anonymous`. */
export function callerKeyOf(call: ToolCall, key: CallerKey): string {
  if (typeof key === 'function') return key(call);
  const { caller } = call;
  const subject = caller.subject === undefined ? undefined : `subject:${caller.subject}`;
  const credential = caller.credentialHash === undefined ? undefined : `credential:${caller.credentialHash}`;
  const address = caller.address === undefined ? undefined : `address:${caller.address}`;
  switch (key) {
    case 'subject':
      return subject ?? 'anonymous';
    case 'credential':
      return credential ?? 'anonymous';
    case 'address':
      return address ?? 'anonymous';
    default:
      return subject ?? credential ?? address ?? 'anonymous';
  }
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
