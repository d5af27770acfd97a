import { TokenExchangeError } from '../errors/token-exchange.error';
import type { VerifiedCaller } from './auth-context';

/** What a tool asks a token for: the API it will call (RFC 8693 `audience`, or RFC 8707 `resource`) and the scopes it needs there. */
export interface TokenExchangeRequest {
  /** The logical name of the target service at the issuer (RFC 8693 `audience`). */
  audience?: string;
  /** The URL of the target API (RFC 8707 `resource`), such as an upstream MCP server's endpoint. */
  resource?: string;
  /** Space-separated scopes asked for at the target. */
  scope?: string;
}

/** Trades a subject token at the issuer (the mount's exchanger, in transport/auth). */
export interface SubjectExchanger {
  exchange(subjectToken: string, request: TokenExchangeRequest): Promise<{ token: string; lifetimeMs: number }>;
  /** The clock exchanged tokens expire by. */
  now(): number;
}

/** A token is used until this long before it expires, so it never expires on the way. */
const EXPIRY_MARGIN_MS = 30_000;

interface Subject {
  token: string;
  exchanger: SubjectExchanger;
  /** Tokens already exchanged for this caller, by request, until shortly before they expire (or while being fetched). */
  exchanged: Map<string, { pending: Promise<{ token: string; lifetimeMs: number }>; expiresAt: number }>;
}

/**
 * Each verified caller's own access token, kept where no tool can read it (the mount's door removes
 * it from the request, and `AuthContext` never holds it), with the exchanger of the mount that
 * verified it. Keyed by the caller the verifier made, so it goes when the verifier forgets the token.
 */
const subjects = new WeakMap<VerifiedCaller, Subject>();

/** Keeps `token`, the one `caller` was verified from, for the token exchanges its calls ask for. */
export function rememberSubject(caller: VerifiedCaller, token: string, exchanger: SubjectExchanger): void {
  if (subjects.get(caller)?.token === token) return;
  subjects.set(caller, { token, exchanger, exchanged: new Map() });
}

/**
 * A token for the API `request` names, exchanged from `caller`'s own (OAuth 2.0 Token Exchange,
 * RFC 8693) and kept per caller and request until shortly before it expires; concurrent calls share
 * one exchange. Throws `TokenExchangeError` saying what to set when the call has no verified caller,
 * the server has no client at the issuer, or the issuer refuses.
 */
export async function exchangeTokenFor(caller: VerifiedCaller | undefined, request: TokenExchangeRequest): Promise<string> {
  if (!request.audience && !request.resource) throw new TokenExchangeError('exchangeToken needs the API the token is for: give audience (its name at the issuer) or resource (its URL).');
  if (!caller) throw new TokenExchangeError('This call has no verified caller, so there is no token to exchange: token exchange works on HTTP mounts that check tokens (AUTH_ISSUER), not over stdio or on a public mount.');
  const subject = subjects.get(caller);
  if (!subject) throw new TokenExchangeError("This server exchanges no tokens: register it as a client at the issuer and set AUTH_CLIENT_ID and AUTH_CLIENT_SECRET (and AUTH_TOKEN_URL when the issuer's metadata names no token_endpoint).");
  const key = JSON.stringify([request.audience ?? '', request.resource ?? '', request.scope ?? '']);
  const known = subject.exchanged.get(key);
  if (known && known.expiresAt > subject.exchanger.now()) return (await known.pending).token;
  const entry = { pending: subject.exchanger.exchange(subject.token, request), expiresAt: Number.POSITIVE_INFINITY };
  subject.exchanged.set(key, entry);
  try {
    const { token, lifetimeMs } = await entry.pending;
    entry.expiresAt = subject.exchanger.now() + Math.max(0, lifetimeMs - EXPIRY_MARGIN_MS);
    return token;
  } catch (error) {
    // A failed exchange is not kept: the next call asks again.
    if (subject.exchanged.get(key) === entry) subject.exchanged.delete(key);
    throw error;
  }
}
