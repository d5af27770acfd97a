/**
 * Token verification for HTTP mounts: the server as an OAuth 2.1 resource server. Set from the
 * environment (`AUTH_ISSUER`, …) by `runServer`, or passed to `serveHttp({ auth })`; a server
 * built with `buildServer({ auth: false })` stays public either way.
 */
export interface AuthOptions {
  /** The authorization server's issuer identifier (`AUTH_ISSUER`): tokens' `iss` must equal it. */
  issuer: string;
  /** The `aud` tokens must carry (`AUTH_AUDIENCE`); default: each mount's public URL. */
  audience?: string;
  /** Where the issuer's signing keys are (`AUTH_JWKS_URL`); default: from the issuer's metadata. */
  jwksUrl?: string;
  /** Accepted signing algorithms (`AUTH_ALGORITHMS`); asymmetric only. Default: every asymmetric one. */
  algorithms?: readonly string[];
  /**
   * Accept a loopback issuer (`http://127.0.0.1:…`, what `toolsets-issuer` prints) on a server whose
   * PUBLIC_URL is not a loopback origin (`AUTH_ALLOW_LOOPBACK_ISSUER=on`): only for an issuer that
   * runs beside the server on purpose. Refused otherwise.
   */
  allowLoopbackIssuer?: boolean;
  /**
   * This server's own client at the issuer (`AUTH_CLIENT_ID`, `AUTH_CLIENT_SECRET`), which turns on
   * OAuth 2.0 Token Exchange (RFC 8693): a tool trades its caller's token for one meant for the API it
   * calls on the caller's behalf (`context.exchangeToken({ resource })`), never passing the MCP token on.
   */
  clientId?: string;
  clientSecret?: string;
  /** The issuer's token endpoint (`AUTH_TOKEN_URL`); default: its metadata's `token_endpoint`. */
  tokenUrl?: string;
  /** The servers (mount names) that check tokens (`AUTH_MOUNTS`); default: every one. */
  mounts?: readonly string[];
  /** After a key set fetch, how long an unknown key id waits before another fetch (default 30 s). */
  jwksCooldownMs?: number;
  /** How long a key set or metadata fetch may take (default 5 s). */
  fetchTimeoutMs?: number;
  /**
   * How a call for a tool, prompt or resource the token lacks scopes for is answered
   * (`AUTH_OUT_OF_SCOPE`): `step-up` (default) is `403 insufficient_scope` naming the scopes, so a
   * client can ask the user for them, which also tells a token holder that the member exists;
   * `hide` answers it exactly as a name the server does not have.
   */
  outOfScope?: 'step-up' | 'hide';
  /**
   * The clock, in milliseconds since the epoch, that tokens' `exp` and `nbf` and the memory of
   * verified tokens are read against. Default `Date.now`; tests pass one they advance.
   */
  now?: () => number;
}
