import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { AuthInfo } from '@modelcontextprotocol/server';
import { callerIn } from '../../../server/request/verified-caller';

/**
 * A digest of the credential headers a request carries (each declared header, present or not),
 * so a session can be held to the caller that opened it without keeping the credentials
 * themselves. Two requests bind alike only if every declared header has the same value in both.
 */
export function credentialBinding(req: IncomingMessage, credentialHeaders: readonly string[]): Buffer {
  const hash = createHash('sha256');
  // On a mount that checks tokens, who the token names too (issuer, subject and client together): another
  // user's token, or another client's token without a subject, never finds the session.
  const caller = callerIn((req as IncomingMessage & { auth?: AuthInfo }).auth);
  if (caller) hash.update(`token\n${JSON.stringify([caller.claims['iss'] ?? null, caller.subject ?? null, caller.clientId ?? null])}\n`);
  for (const name of credentialHeaders) {
    const value = req.headers[name];
    // Absent and empty differ from any value; the separator cannot occur in a header value.
    hash.update(`${name}\n${value === undefined ? '\u0000absent' : String(value)}\n`);
  }
  return hash.digest();
}

export function sameBinding(a: Buffer, b: Buffer): boolean {
  return timingSafeEqual(a, b);
}

/** The address a request came from, IPv4-mapped IPv6 written as IPv4 (behind a proxy: the proxy's). */
export function clientAddress(req: IncomingMessage): string {
  const address = req.socket.remoteAddress ?? 'unknown';
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}
