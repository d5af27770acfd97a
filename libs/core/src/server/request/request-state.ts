import { createHash, randomBytes } from 'node:crypto';
import { createRequestStateCodec, type RequestStateCodec } from '@modelcontextprotocol/server';
import type { Call } from './call';

/** Seals and opens the `requestState` of 2026-07-28 multi round-trips: HMAC-SHA256 with an expiry (the SDK's codec). */
export type RequestStateSeal = RequestStateCodec<unknown>;

/** The environment variable that holds the key every replica seals `requestState` with. */
export const REQUEST_STATE_KEY_VARIABLE = 'MCP_REQUEST_STATE_KEY';
/** The shortest key the SDK's codec takes: 32 bytes. */
export const REQUEST_STATE_KEY_MIN_BYTES = 32;
/** How long a sealed `requestState` may come back: ten minutes, as long as a user may take to answer. */
const STATE_TTL_SECONDS = 600;

/**
 * The seal of a server's `requestState`, with `key` (at least 32 bytes). Without one, a random key
 * of this process: retries must then reach the same process, so replicas share a key
 * (`MCP_REQUEST_STATE_KEY`). Returns a problem instead when the key is too short.
 */
export function requestStateSeal(key: string | undefined): RequestStateSeal | string {
  if (key !== undefined && Buffer.byteLength(key) < REQUEST_STATE_KEY_MIN_BYTES) {
    return `is ${Buffer.byteLength(key)} bytes long; it must be at least ${REQUEST_STATE_KEY_MIN_BYTES} (for instance \`openssl rand -base64 48\`)`;
  }
  return createRequestStateCodec({ key: key ?? randomBytes(REQUEST_STATE_KEY_MIN_BYTES), ttlSeconds: STATE_TTL_SECONDS });
}

/**
 * A digest naming one call: the caller (`principal`), the member (`tools/call weather.forecast`)
 * and the arguments, so a sealed `requestState` answers only the call it was made for.
 */
export function callIdentity(call: Pick<Call, 'method' | 'arguments'>, principal: string, member: string): string {
  return createHash('sha256')
    .update(JSON.stringify([principal, call.method, member, call.arguments ?? null]))
    .digest('base64url')
    .slice(0, 32);
}
