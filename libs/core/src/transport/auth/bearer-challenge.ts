/** An answer refusing a request at the door, for the HTTP layer to send. */
export interface AuthRefusal {
  status: 400 | 401 | 403 | 503;
  headers: Record<string, string>;
  body: { error?: string; error_description: string };
}

/** RFC 6750 §3: the `WWW-Authenticate` value; `error` only where a token was sent. */
export function bearerChallenge(resourceMetadata: string, fields: { error?: string; description?: string; scope?: readonly string[] } = {}): string {
  const parts = [
    fields.error && `error="${fields.error}"`,
    fields.description && `error_description="${quoted(fields.description)}"`,
    fields.scope && fields.scope.length > 0 && `scope="${quoted(fields.scope.join(' '))}"`,
    `resource_metadata="${quoted(resourceMetadata)}"`,
  ].filter(Boolean);
  return `Bearer ${parts.join(', ')}`;
}

/** No token (or a scheme other than Bearer): where to get one, and no error code (RFC 6750 §3.1). */
export function missingToken(resourceMetadata: string): AuthRefusal {
  return {
    status: 401,
    headers: { 'www-authenticate': bearerChallenge(resourceMetadata) },
    body: { error_description: 'This MCP server needs an OAuth access token: send it as Authorization: Bearer <token>. resource_metadata in WWW-Authenticate says where to get one.' },
  };
}

/** A token that failed a check. The answer never says which: the server log does. */
export function invalidToken(resourceMetadata: string, description = 'The access token is not valid for this server.'): AuthRefusal {
  return {
    status: 401,
    headers: { 'www-authenticate': bearerChallenge(resourceMetadata, { error: 'invalid_token', description }) },
    body: { error: 'invalid_token', error_description: description },
  };
}

/** A valid token without every scope the request needs: all of them, in one challenge. */
export function insufficientScope(resourceMetadata: string, scope: readonly string[]): AuthRefusal {
  const description = `This request needs the scope(s) ${scope.join(' ')}.`;
  return {
    status: 403,
    headers: { 'www-authenticate': bearerChallenge(resourceMetadata, { error: 'insufficient_scope', description, scope }) },
    body: { error: 'insufficient_scope', error_description: description },
  };
}

/** Nothing can be checked (the issuer's keys are unreachable): fail closed, and say to retry. */
export function verificationUnavailable(): AuthRefusal {
  return {
    status: 503,
    headers: { 'retry-after': '5' },
    body: { error: 'temporarily_unavailable', error_description: 'The access token cannot be checked right now; retry shortly.' },
  };
}

/** More than one Authorization header: which one counts is ambiguous (RFC 6750 §3.1 invalid_request). */
export function ambiguousToken(resourceMetadata: string): AuthRefusal {
  const description = 'Send one Authorization header, with one Bearer token.';
  return {
    status: 400,
    headers: { 'www-authenticate': bearerChallenge(resourceMetadata, { error: 'invalid_request', description }) },
    body: { error: 'invalid_request', error_description: description },
  };
}

function quoted(value: string): string {
  return value.replace(/[\\"]/g, (c) => `\\${c}`);
}
