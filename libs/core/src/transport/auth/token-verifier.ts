import { LRUCache } from 'lru-cache';
import { createHash } from 'node:crypto';
import type * as Jose from 'jose' with { 'resolution-mode': 'import' };
import type { VerifiedCaller } from '../../context/auth-context';
import { clip } from '../../helpers/client-text';
import { sortedScopes } from '../../helpers/scopes';

/** What the verifier needs, resolved: the issuer, the audience and where its keys are. */
export interface VerifierSettings {
  issuer: string;
  audience: string;
  jwksUrl: URL;
  algorithms: readonly string[];
  jwksCooldownMs: number;
  fetchTimeoutMs: number;
  /** The clock `exp`, `nbf` and the memory are read against (milliseconds since the epoch). */
  now: () => number;
}

/** A token that passed every check. */
export interface Verified {
  kind: 'verified';
  caller: VerifiedCaller;
  /** Its `exp`, in seconds since the epoch. */
  expiresAt: number;
  /** The `kid` of the key that signed it. */
  kid?: string;
}

/** A passed token, remembered (for at most its TTL in the memory) while its signing key stays published. */
interface Remembered {
  outcome: Verified;
  kid: string | undefined;
}

/**
 * A token refused: `invalid` (401: bad signature, expired, another issuer or audience, unknown key),
 * or `unavailable` (503: the issuer's keys could not be fetched, so nothing can be checked). The
 * reason is for the server log only; it never holds the token.
 */
export interface Refused {
  kind: 'invalid' | 'unavailable';
  reason: string;
}

/** Tokens whose verification is remembered at once; past it the least recently used is forgotten. */
const MAX_REMEMBERED = 10_000;
/** The longest a passed token is remembered, whatever its `exp`: then its signature is checked again. */
const REMEMBER_MS = 60_000;

/** jose errors that mean the key set could not be had, not that the token is bad. */
const UNAVAILABLE_CODES = new Set(['ERR_JWKS_TIMEOUT', 'ERR_JWKS_INVALID', 'ERR_JOSE_GENERIC']);

/**
 * Verifies JWT access tokens with `jose`: the signature against the issuer's JSON Web Key Set
 * (fetched once and cached; an unknown key id refetches it at most once per cooldown, so a flood
 * of made-up key ids cannot make this server hammer the issuer), `exp` required, `nbf`, `iss` and
 * `aud` exact, and only the configured algorithms.
 */
export class TokenVerifier {
  #keys: ReturnType<typeof Jose.createRemoteJWKSet> | undefined;
  /**
   * Tokens that passed, by their SHA-256 (not the token itself): the least recently used go first,
   * and each for at most a minute and never past its `exp` (a TTL of its own). ttlResolution 0:
   * the settings' clock is read on every lookup.
   */
  readonly #remembered: LRUCache<string, Remembered>;

  constructor(private readonly settings: VerifierSettings) {
    this.#remembered = new LRUCache<string, Remembered>({ max: MAX_REMEMBERED, ttlResolution: 0, perf: { now: settings.now } });
  }

  /**
   * A token that passed is remembered (by its hash) for at most a minute and never past its `exp`,
   * so a client that sends the same token on every call pays for the signature about once a minute.
   * A remembered token is forgotten at once when the key that signed it is no longer in the key set
   * (the issuer withdrew it and the set was fetched again). Failures are never remembered.
   */
  async verify(token: string): Promise<Verified | Refused> {
    const key = createHash('sha256').update(token).digest('base64url');
    const known = this.#remembered.get(key);
    if (known) {
      if (this.keyStillPublished(known.kid)) return known.outcome;
      this.#remembered.delete(key);
    }
    const outcome = await this.check(token);
    if (outcome.kind === 'verified') {
      // Until exp: an age of exp - now, which the memory still counts as fresh, so one millisecond less.
      const ttl = Math.min(outcome.expiresAt * 1000 - this.settings.now() - 1, REMEMBER_MS);
      if (ttl > 0) this.#remembered.set(key, { outcome, kid: outcome.kid }, { ttl });
    }
    return outcome;
  }

  /** Whether the key set as last fetched still holds `kid` (a token without one is checked against any key). */
  private keyStillPublished(kid: string | undefined): boolean {
    const keys = this.#keys?.jwks()?.keys;
    if (!keys) return false;
    return kid === undefined ? keys.length > 0 : keys.some((jwk) => jwk.kid === kid);
  }

  /**
   * For a token for another audience or from another issuer: what it says and what this server
   * expects, so the log line says which side to fix (neither is a secret; the token is not logged).
   */
  private claimMismatch(error: unknown): string {
    const { claim, payload } = error as { claim?: unknown; payload?: Record<string, unknown> };
    if (claim === 'aud') return ` (the token is for ${clip(JSON.stringify(payload?.['aud'] ?? null), 200)}; this server expects ${this.settings.audience})`;
    if (claim === 'iss') return ` (the token is from ${clip(JSON.stringify(payload?.['iss'] ?? null), 200)}; this server expects ${this.settings.issuer})`;
    return '';
  }

  private async check(token: string): Promise<Verified | Refused> {
    const jose = loadJose();
    this.#keys ??= jose.createRemoteJWKSet(this.settings.jwksUrl, {
      cooldownDuration: this.settings.jwksCooldownMs,
      timeoutDuration: this.settings.fetchTimeoutMs,
    });
    try {
      const { payload, protectedHeader } = await jose.jwtVerify(token, this.#keys, {
        issuer: this.settings.issuer,
        audience: this.settings.audience,
        algorithms: [...this.settings.algorithms],
        requiredClaims: ['exp'],
        currentDate: new Date(this.settings.now()),
      });
      return { kind: 'verified', caller: callerOf(payload), expiresAt: payload.exp!, ...(protectedHeader.kid !== undefined && { kid: protectedHeader.kid }) };
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      const reason = `${typeof code === 'string' ? code : (error as Error).name}: ${(error as Error).message}${this.claimMismatch(error)}`;
      const unavailable = !(error instanceof jose.errors.JOSEError) || UNAVAILABLE_CODES.has(String(code));
      return { kind: unavailable ? 'unavailable' : 'invalid', reason };
    }
  }
}

/** Subject, client and scopes from a verified payload: `scope` (space-separated) or `scp` (an array). */
function callerOf(payload: Jose.JWTPayload): VerifiedCaller {
  const scopes = typeof payload['scope'] === 'string' ? payload['scope'].split(' ') : Array.isArray(payload['scp']) ? payload['scp'] : typeof payload['scp'] === 'string' ? payload['scp'].split(' ') : [];
  const clientId = typeof payload['client_id'] === 'string' ? payload['client_id'] : typeof payload['azp'] === 'string' ? payload['azp'] : undefined;
  return {
    ...(typeof payload.sub === 'string' && { subject: payload.sub }),
    ...(clientId !== undefined && { clientId }),
    scopes: sortedScopes(scopes.filter((scope): scope is string => typeof scope === 'string' && scope !== '')),
    claims: payload,
  };
}

let jose: typeof Jose | undefined;

/**
 * `jose` is loaded when a mount first checks a token: it ships ES modules only, which Node 20.19+
 * `require`s, and an app (or a test runner) that checks no token never loads it.
 */
function loadJose(): typeof Jose {
  return (jose ??= require('jose') as typeof Jose);
}
