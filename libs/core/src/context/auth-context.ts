/** What a verified access token says about its caller, as the HTTP transport hands it on. */
export interface VerifiedCaller {
  subject?: string;
  clientId?: string;
  scopes: readonly string[];
  /** The token's claims (its payload), never the token itself. */
  claims: Readonly<Record<string, unknown>>;
}

const NO_CLAIMS: Readonly<Record<string, unknown>> = Object.freeze({});

/**
 * Who calls, as the mount's token verification established it, injected into toolset constructors
 * (or read as `context.auth`). It never holds the token: a tool that calls another API on the
 * user's behalf needs its own credential for it (a declared credential header, or a token
 * exchange), because the MCP token is meant for this server alone.
 *
 * `authenticated` is false where no token is checked: over stdio (the process owner is the user)
 * and over HTTP on a mount without `AUTH_ISSUER`. There `subject` is undefined and `scopes` empty.
 */
export class AuthContext {
  /** Whether a verified token stands behind this call. */
  readonly authenticated: boolean;
  /** The token's `sub`. */
  readonly subject: string | undefined;
  /** The token's `client_id`, else its `azp`. */
  readonly clientId: string | undefined;
  /** The scopes the token grants (`scope`, space-separated, or `scp`), sorted. */
  readonly scopes: readonly string[];
  readonly claims: Readonly<Record<string, unknown>>;

  constructor(caller?: VerifiedCaller) {
    this.authenticated = caller !== undefined;
    this.subject = caller?.subject;
    this.clientId = caller?.clientId;
    this.scopes = Object.freeze([...(caller?.scopes ?? [])]);
    this.claims = caller ? Object.freeze({ ...caller.claims }) : NO_CLAIMS;
  }

  /** Whether the token grants every scope named. */
  hasScopes(...scopes: string[]): boolean {
    return scopes.every((scope) => this.scopes.includes(scope));
  }

  /** One context for every call with no verified caller. */
  static readonly anonymous = new AuthContext();

  /**
   * The context of `caller`, made once per verified caller (a token the server remembers gives the
   * same caller on every call), or `anonymous`. It is immutable, so calls can share it.
   */
  static of(caller: VerifiedCaller | undefined): AuthContext {
    if (!caller) return AuthContext.anonymous;
    let context = contexts.get(caller);
    if (!context) contexts.set(caller, (context = new AuthContext(caller)));
    return context;
  }
}

const contexts = new WeakMap<VerifiedCaller, AuthContext>();
