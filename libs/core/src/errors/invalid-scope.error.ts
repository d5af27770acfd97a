import { ContractViolation, type ViolationSite } from './contract-violation';

/** A `@RequireScopes` value that no token or `WWW-Authenticate` challenge can carry. */
export class InvalidScopeError extends ContractViolation {
  constructor(site: ViolationSite, where: string, scope: unknown) {
    super(
      site,
      `@RequireScopes on ${where} has the scope ${JSON.stringify(scope)}: a scope is one or more printable ASCII characters without spaces, double quotes or backslashes (RFC 6749 §3.3), since tokens list scopes separated by spaces and challenges quote them.`,
      "give each scope as its own argument, written like 'notes:read': @RequireScopes('notes:read', 'notes:write').",
    );
  }
}
