import { AuthSettingError } from '../../errors/auth-setting.error';
import type { AuthOptions } from '../../server/request/auth-options';
import type { ServerDefinition } from '../../server/build-server';
import type { Logger } from '../../server/logging/logger';
import { isLoopback } from '../guards/host-policy';
import { checkAuthOptions, type CheckedAuthOptions } from './auth-settings';
import { discoverJwksUrl, discoverTokenUrl } from './issuer-metadata';
import { MountAuth } from './mount-auth';
import { TokenExchanger } from './token-exchanger';
import { TokenVerifier } from './token-verifier';

/** One server to serve over HTTP and the path it is mounted at. */
export interface MountPlan {
  server: ServerDefinition;
  path: string;
}

/**
 * The door of each mount that checks tokens: the app's settings (`serveHttp({ auth })`, from
 * `AUTH_*`) for the mounts they name (all by default), a server's own `buildServer({ auth })`
 * instead, none for `auth: false`. Checks every setting and finds each issuer's key set before
 * anything listens; throws `AuthSettingError` naming the variable. Bind each to its public URL
 * once the address is known.
 */
export async function prepareMountAuth(
  plans: readonly MountPlan[],
  app: AuthOptions | undefined,
  where: { host: string; publicUrl?: string },
  logger: Logger,
): Promise<Map<ServerDefinition, MountAuth>> {
  const names = plans.map((plan) => plan.server.name);
  const checkedApp = app && checkAuthOptions(app, names);
  const doors = new Map<ServerDefinition, MountAuth>();
  const keySets = new Map<string, Promise<URL>>();
  const exchangers = new Map<CheckedAuthOptions, TokenExchanger>();
  for (const { server, path } of plans) {
    const settings = server.auth === false ? undefined : server.auth ? checkAuthOptions(server.auth, names) : checkedApp && (!checkedApp.mounts || checkedApp.mounts.has(server.name)) ? checkedApp : undefined;
    if (!settings) continue;
    refuseTokenPassthrough(server);
    refuseLoopbackIssuer(settings, where.publicUrl);
    const jwksUrl = await (settings.jwksUrl ? Promise.resolve(settings.jwksUrl) : memo(keySets, settings.issuer.href, () => discoverJwksUrl(settings.issuer, settings.issuerText, settings.fetchTimeoutMs)));
    const verifier = (audience: string) => new TokenVerifier({ ...verifierSettings(settings), issuer: settings.issuerText, audience, jwksUrl });
    doors.set(server, new MountAuth(server, path, settings.issuerText, settings.audience, verifier, logger, settings.hideOutOfScope, exchangerFor(settings, exchangers)));
  }
  if (doors.size > 0 && !where.publicUrl && !isLoopback(where.host)) {
    throw new AuthSettingError(
      'PUBLIC_URL',
      `is unset while the server listens on ${where.host}: a token's audience and the protected-resource metadata name the URL clients use, which this server cannot know`,
      'set PUBLIC_URL to the origin clients reach this server at, such as https://mcp.example.com',
    );
  }
  for (const server of plans.map((plan) => plan.server).filter((s) => !doors.has(s) && s.views.scopes.length > 0)) {
    logger.warn('tools declare scopes, but this mount checks no token: anyone who reaches it can call them (set AUTH_ISSUER)', { server: server.name, scopes: server.views.scopes.join(' ') });
  }
  return doors;
}

/**
 * The token exchanger of mounts with these settings, when they name this server's client at the
 * issuer: one per settings, its token endpoint found from the issuer's metadata on first use
 * (a failed lookup is tried again on the next exchange).
 */
function exchangerFor(settings: CheckedAuthOptions, exchangers: Map<CheckedAuthOptions, TokenExchanger>): TokenExchanger | undefined {
  const client = settings.client;
  if (!client) return undefined;
  let exchanger = exchangers.get(settings);
  if (exchanger) return exchanger;
  let tokenUrl: Promise<URL> | undefined;
  const find = () =>
    (tokenUrl ??= (settings.tokenUrl ? Promise.resolve(settings.tokenUrl) : discoverTokenUrl(settings.issuer, settings.issuerText, settings.fetchTimeoutMs)).catch((error: unknown) => {
      tokenUrl = undefined;
      throw error;
    }));
  exchangers.set(settings, (exchanger = new TokenExchanger({ clientId: client.id, clientSecret: client.secret, tokenUrl: find, fetchTimeoutMs: settings.fetchTimeoutMs, now: settings.now })));
  return exchanger;
}

function verifierSettings(settings: CheckedAuthOptions) {
  return { algorithms: settings.algorithms, jwksCooldownMs: settings.jwksCooldownMs, fetchTimeoutMs: settings.fetchTimeoutMs, now: settings.now };
}

/**
 * A toolset that reads `authorization` as its credential would receive the MCP token, which is for
 * this server alone (no token passthrough): refused at start.
 */
function refuseTokenPassthrough(server: ServerDefinition): void {
  const toolset = server.catalog.toolsets.find((t) => t.credentialHeaders.includes('authorization'));
  if (!toolset) return;
  throw new AuthSettingError(
    'AUTH_ISSUER',
    `is set for server '${server.name}', whose toolset '${toolset.name}' declares the credential header 'authorization': it would receive the MCP access token, which is meant for this server alone`,
    `declare the upstream credential under another header in @Toolset({ credentialHeaders }) (such as 'x-upstream-authorization'), or serve '${server.name}' without token checks (buildServer({ auth: false }) or AUTH_MOUNTS)`,
  );
}

/**
 * A loopback issuer (a local one for development, as `toolsets-issuer` prints) on a server clients
 * reach at a public origin: no client elsewhere can get a token from it, and whoever runs an
 * issuer on that port of this machine mints tokens the server accepts. Refused unless allowed.
 */
function refuseLoopbackIssuer(settings: CheckedAuthOptions, publicUrl: string | undefined): void {
  if (!publicUrl || settings.allowLoopbackIssuer || !isLoopback(settings.issuer.hostname)) return;
  let publicHost: string;
  try {
    publicHost = new URL(publicUrl).hostname;
  } catch {
    return;
  }
  if (isLoopback(publicHost)) return;
  throw new AuthSettingError(
    'AUTH_ISSUER',
    `is ${JSON.stringify(settings.issuerText)}, a loopback address, while PUBLIC_URL is ${JSON.stringify(publicUrl)}: clients elsewhere cannot get tokens from it, and anyone who runs an issuer on that port of this machine could mint tokens this server accepts`,
    "give your authorization server's public issuer identifier (https://…); if the issuer runs beside this server on purpose, set AUTH_ALLOW_LOOPBACK_ISSUER=on (allowLoopbackIssuer: true)",
  );
}

function memo<T>(cache: Map<string, Promise<T>>, key: string, make: () => Promise<T>): Promise<T> {
  let value = cache.get(key);
  if (!value) cache.set(key, (value = make()));
  return value;
}
