import type { HttpServeOptions } from '../transport/http/http-server';
import { ZERO_ALLOWED, type ServingLimits } from '../transport/serving-limits';
import { AuthSettingError } from '../errors/auth-setting.error';
import type { AuthOptions } from '../server/request/auth-options';

/** Each serving limit and the environment variable that sets it (the Serving table of docs/serving-and-deploying.md). */
export const LIMIT_VARIABLES: readonly (readonly [keyof ServingLimits, string])[] = [
  ['maxBodyBytes', 'MAX_BODY_BYTES'],
  ['maxBufferedBodyBytes', 'MAX_BUFFERED_BODY_BYTES'],
  ['maxConnections', 'MAX_CONNECTIONS'],
  ['maxRequestsInFlight', 'MAX_REQUESTS_IN_FLIGHT'],
  ['headersTimeoutMs', 'HEADERS_TIMEOUT_MS'],
  ['requestTimeoutMs', 'REQUEST_TIMEOUT_MS'],
  ['keepAliveTimeoutMs', 'KEEP_ALIVE_TIMEOUT_MS'],
  ['streamKeepAliveMs', 'STREAM_KEEP_ALIVE_MS'],
  ['drainDelayMs', 'DRAIN_DELAY_MS'],
  ['drainTimeoutMs', 'DRAIN_TIMEOUT_MS'],
  ['drainQuietMs', 'DRAIN_QUIET_MS'],
  ['maxArgumentItems', 'MAX_ARGUMENT_ITEMS'],
  ['maxArgumentStringLength', 'MAX_ARGUMENT_STRING_LENGTH'],
  ['maxArgumentDepth', 'MAX_ARGUMENT_DEPTH'],
  ['maxSessions', 'MAX_SESSIONS'],
  ['sessionIdleTimeoutMs', 'SESSION_IDLE_TIMEOUT_MS'],
  ['sessionIdleUnusedMs', 'SESSION_IDLE_UNUSED_MS'],
  ['maxSessionsPerClient', 'MAX_SESSIONS_PER_CLIENT'],
];

/** The variables that configure token verification (docs/authorization.md). */
export const AUTH_VARIABLES = ['AUTH_ISSUER', 'AUTH_AUDIENCE', 'AUTH_JWKS_URL', 'AUTH_ALGORITHMS', 'AUTH_MOUNTS', 'AUTH_OUT_OF_SCOPE', 'AUTH_ALLOW_LOOPBACK_ISSUER', 'AUTH_CLIENT_ID', 'AUTH_CLIENT_SECRET', 'AUTH_TOKEN_URL', 'PUBLIC_URL'] as const;

/**
 * Serving options from the environment: HOST, PORT, ALLOWED_HOSTS, CORS_ORIGINS, MCP_SESSIONS, MCP_FAST_PATH,
 * PUBLIC_URL, MCP_NAMESPACE, token verification (AUTH_*), METRICS and METRICS_PORT, and every limit.
 */
export function servingOptionsFromEnvironment(env: NodeJS.ProcessEnv): HttpServeOptions {
  const options: HttpServeOptions = {
    host: env['HOST'] || '127.0.0.1',
    port: parsePort(env['PORT']),
    allowedHosts: list(env['ALLOWED_HOSTS']),
    corsOrigins: list(env['CORS_ORIGINS']),
    sessions: parseSwitch(env['MCP_SESSIONS'], 'MCP_SESSIONS'),
    // On unless MCP_FAST_PATH=off: the switch exists to compare with, and to rule out, the fast path.
    ...(env['MCP_FAST_PATH']?.trim() && { fastPath: parseSwitch(env['MCP_FAST_PATH'], 'MCP_FAST_PATH') }),
    ...(env['PUBLIC_URL'] && { publicUrl: env['PUBLIC_URL'].trim() }),
    ...namespaceFromEnvironment(env),
    ...authFromEnvironment(env),
    ...metricsFromEnvironment(env),
  };
  for (const [key, variable] of LIMIT_VARIABLES) {
    const value = parseCount(env[variable], variable, ZERO_ALLOWED.has(key));
    if (value !== undefined) options[key] = value;
  }
  return options;
}

/** `auth` from AUTH_ISSUER (which turns it on), AUTH_AUDIENCE, AUTH_JWKS_URL, AUTH_ALGORITHMS and AUTH_MOUNTS. */
function authFromEnvironment(env: NodeJS.ProcessEnv): Pick<HttpServeOptions, 'auth'> {
  const issuer = env['AUTH_ISSUER']?.trim();
  if (!issuer) {
    const stray = AUTH_VARIABLES.filter((name) => name.startsWith('AUTH_') && name !== 'AUTH_ISSUER' && env[name]);
    if (stray.length > 0) throw new AuthSettingError('AUTH_ISSUER', `is unset while ${stray.join(', ')} ${stray.length === 1 ? 'is' : 'are'} set, so no token would be checked`, 'set AUTH_ISSUER to your authorization server, or unset the others');
    return {};
  }
  return {
    auth: {
      issuer,
      ...(env['AUTH_AUDIENCE'] && { audience: env['AUTH_AUDIENCE'] }),
      ...(env['AUTH_JWKS_URL'] && { jwksUrl: env['AUTH_JWKS_URL'].trim() }),
      ...(env['AUTH_ALGORITHMS'] && { algorithms: list(env['AUTH_ALGORITHMS']) }),
      ...(env['AUTH_MOUNTS'] && { mounts: list(env['AUTH_MOUNTS']) }),
      ...(env['AUTH_OUT_OF_SCOPE'] && { outOfScope: env['AUTH_OUT_OF_SCOPE'].trim() as AuthOptions['outOfScope'] }),
      ...(parseSwitch(env['AUTH_ALLOW_LOOPBACK_ISSUER'], 'AUTH_ALLOW_LOOPBACK_ISSUER') && { allowLoopbackIssuer: true }),
      ...(env['AUTH_CLIENT_ID'] && { clientId: env['AUTH_CLIENT_ID'] }),
      ...(env['AUTH_CLIENT_SECRET'] && { clientSecret: env['AUTH_CLIENT_SECRET'] }),
      ...(env['AUTH_TOKEN_URL'] && { tokenUrl: env['AUTH_TOKEN_URL'].trim() }),
    },
  };
}

/** MCP_NAMESPACE: the reverse-DNS namespace of the servers' Server Card names. */
function namespaceFromEnvironment(env: NodeJS.ProcessEnv): Pick<HttpServeOptions, 'namespace'> {
  const namespace = env['MCP_NAMESPACE']?.trim();
  if (!namespace) return {};
  if (!/^[a-zA-Z0-9.-]+$/.test(namespace)) {
    throw new Error(`MCP_NAMESPACE must be a reverse-DNS namespace of letters, digits, dots and hyphens (such as io.github.acme), got ${JSON.stringify(namespace.slice(0, 60))}.`);
  }
  return { namespace };
}

/** `/metrics` from METRICS=on, on its own port with METRICS_PORT. */
function metricsFromEnvironment(env: NodeJS.ProcessEnv): Pick<HttpServeOptions, 'metrics' | 'metricsPort' | 'metricsToken'> {
  const on = parseSwitch(env['METRICS'], 'METRICS');
  const token = env['METRICS_TOKEN']?.trim();
  if (token && !on) throw new Error('METRICS_TOKEN is set while METRICS is off, so nothing asks for it. Set METRICS=on, or unset METRICS_TOKEN.');
  const metricsToken = token ? { metricsToken: token } : {};
  const port = env['METRICS_PORT']?.trim();
  if (!port) return on ? { metrics: true, ...metricsToken } : {};
  if (!on) throw new Error(`METRICS_PORT is set (${JSON.stringify(port)}) while METRICS is off, so nothing would listen there. Set METRICS=on, or unset METRICS_PORT.`);
  const metricsPort = parsePort(port, 'METRICS_PORT');
  if (metricsPort !== 0 && metricsPort === parsePort(env['PORT'])) {
    throw new Error(`METRICS_PORT is ${metricsPort}, the MCP port (PORT). Give it another port, or unset METRICS_PORT to serve /metrics on the MCP port.`);
  }
  return { metrics: true, metricsPort, ...metricsToken };
}

function list(value: string | undefined): string[] {
  return (value ?? '').split(',').map((item) => item.trim()).filter(Boolean);
}

function parseSwitch(value: string | undefined, name: string): boolean {
  const normalized = (value ?? '').trim().toLowerCase();
  if (['', 'off', 'false', '0'].includes(normalized)) return false;
  if (['on', 'true', '1'].includes(normalized)) return true;
  throw new Error(`${name} must be on or off, got ${JSON.stringify(value)}.`);
}

function parsePort(value: string | undefined, name = 'PORT'): number {
  if (value === undefined || value === '') return 8000;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`${name} must be an integer from 0 to 65535, got ${JSON.stringify(value)}.`);
  }
  return port;
}

function parseCount(value: string | undefined, name: string, zeroAllowed: boolean): number | undefined {
  if (value === undefined || value === '') return undefined;
  const number = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(number) || (number === 0 && !zeroAllowed)) {
    throw new Error(`${name} must be a ${zeroAllowed ? 'non-negative' : 'positive'} integer, got ${JSON.stringify(value)}.`);
  }
  return number;
}
