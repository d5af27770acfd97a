import 'reflect-metadata';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AuthSettingError, buildServer, RequireScopes, serveHttp, Tool, ToolResult, Toolset, type Logger } from '../../src';
import { servingOptionsFromEnvironment } from '../../src/app/serving-environment';
import { recordingLogger } from '../support/connect';

class Done extends ToolResult {}

@Toolset({ name: 'plain', description: 'One tool.' })
class PlainToolset {
  @Tool({ description: 'Ping.', returns: Done })
  ping(): Done {
    return { message: 'pong' };
  }
}

@Toolset({ name: 'upstream', description: 'Reads an upstream credential.', credentialHeaders: ['Authorization'] })
class UpstreamToolset {
  @Tool({ description: 'Fetch.', returns: Done })
  fetch(): Done {
    return { message: 'fetched' };
  }
}

@Toolset({ name: 'guarded', description: 'Scoped.' })
@RequireScopes('guarded:use')
class GuardedToolset {
  @Tool({ description: 'Open.', returns: Done })
  open(): Done {
    return { message: 'opened' };
  }
}

const quiet: Logger = recordingLogger().logger;
const plain = () => buildServer({ name: 'plain', version: '1', toolsets: [PlainToolset], logger: quiet });

async function refusal(start: () => Promise<unknown>): Promise<AuthSettingError> {
  try {
    const handle = (await start()) as { close?: () => Promise<void> };
    await handle?.close?.();
  } catch (error) {
    if (error instanceof AuthSettingError) return error;
    throw error;
  }
  throw new Error('expected an AuthSettingError');
}

/** A loopback server answering `routes` by path, 404 otherwise. */
async function serveJson(routes: Record<string, (origin: string) => unknown>): Promise<{ origin: string; server: Server }> {
  let origin = '';
  const server = createServer((req, res) => {
    const route = routes[req.url ?? ''];
    if (!route) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(route(origin)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, server };
}

describe('token verification settings', () => {
  it('are read from AUTH_ISSUER, AUTH_AUDIENCE, AUTH_JWKS_URL, AUTH_ALGORITHMS, AUTH_MOUNTS and PUBLIC_URL', () => {
    const options = servingOptionsFromEnvironment({
      AUTH_ISSUER: 'https://auth.example.com/realms/mcp',
      AUTH_AUDIENCE: 'mcp-api',
      AUTH_JWKS_URL: 'https://auth.example.com/keys',
      AUTH_ALGORITHMS: 'ES256, RS256',
      AUTH_MOUNTS: 'notes',
      PUBLIC_URL: 'https://mcp.example.com',
    });
    expect(options.auth).toEqual({ issuer: 'https://auth.example.com/realms/mcp', audience: 'mcp-api', jwksUrl: 'https://auth.example.com/keys', algorithms: ['ES256', 'RS256'], mounts: ['notes'] });
    expect(options.publicUrl).toBe('https://mcp.example.com');
    expect(servingOptionsFromEnvironment({}).auth).toBeUndefined();
    // This server's own client at the issuer, for token exchange.
    const exchanging = servingOptionsFromEnvironment({ AUTH_ISSUER: 'https://auth.example.com', AUTH_CLIENT_ID: 'mcp-server', AUTH_CLIENT_SECRET: 's', AUTH_TOKEN_URL: 'https://auth.example.com/token' });
    expect(exchanging.auth).toEqual({ issuer: 'https://auth.example.com', clientId: 'mcp-server', clientSecret: 's', tokenUrl: 'https://auth.example.com/token' });
    expect(() => servingOptionsFromEnvironment({ AUTH_CLIENT_ID: 'mcp-server' })).toThrow('AUTH_ISSUER is unset while AUTH_CLIENT_ID is set');
  });

  it('refuse AUTH_* without AUTH_ISSUER, which would check nothing', () => {
    expect(() => servingOptionsFromEnvironment({ AUTH_AUDIENCE: 'x' })).toThrow(
      'Not starting: AUTH_ISSUER is unset while AUTH_AUDIENCE is set, so no token would be checked. Fix: set AUTH_ISSUER to your authorization server, or unset the others',
    );
  });

  it.each([
    ['none', /AUTH_ALGORITHMS includes "none": 'none' accepts unsigned tokens/],
    ['HS256', /AUTH_ALGORITHMS includes "HS256": HS256 is symmetric/],
    ['ES256,hs512', /AUTH_ALGORITHMS includes "hs512": hs512 is symmetric/],
    ['XYZ', /AUTH_ALGORITHMS includes "XYZ": "XYZ" is not a JWS signing algorithm/],
  ])('refuse AUTH_ALGORITHMS=%s at startup', async (algorithms, message) => {
    const error = await refusal(() => serveHttp(plain(), { port: 0, auth: { issuer: 'https://auth.example.com', jwksUrl: 'https://auth.example.com/keys', algorithms: algorithms.split(',') } }));
    expect(error.variable).toBe('AUTH_ALGORITHMS');
    expect(error.message).toMatch(message);
    expect(error.message).toContain('Fix: list asymmetric algorithms only');
  });

  it.each([
    ['not a URL', 'auth.example.com', 'AUTH_ISSUER', /is "auth\.example\.com", not a URL/],
    ['plain http off loopback', 'http://auth.example.com', 'AUTH_ISSUER', /must come over https/],
    ['a query', 'https://auth.example.com/?realm=x', 'AUTH_ISSUER', /with a query or fragment/],
  ])('refuse an issuer that is %s', async (_what, issuer, variable, message) => {
    const error = await refusal(() => serveHttp(plain(), { port: 0, auth: { issuer, jwksUrl: 'https://auth.example.com/keys' } }));
    expect(error.variable).toBe(variable);
    expect(error.message).toMatch(message);
  });

  it('refuse AUTH_MOUNTS naming a server the app does not serve', async () => {
    const error = await refusal(() => serveHttp([plain()], { port: 0, auth: { issuer: 'https://auth.example.com', jwksUrl: 'https://auth.example.com/keys', mounts: ['nope'] } }));
    expect(error.message).toBe("Not starting: AUTH_MOUNTS names 'nope', not served by this app. Fix: list some of: plain");
  });

  it('refuse a non-loopback server without PUBLIC_URL, whose own URL it cannot know', async () => {
    const error = await refusal(() => serveHttp(plain(), { host: '0.0.0.0', port: 0, allowedHosts: ['mcp.example.com'], auth: { issuer: 'https://auth.example.com', jwksUrl: 'https://auth.example.com/keys' } }));
    expect(error.variable).toBe('PUBLIC_URL');
    expect(error.message).toContain('set PUBLIC_URL to the origin clients reach this server at');
  });

  it('refuse a loopback issuer on a server whose PUBLIC_URL is a public origin, unless AUTH_ALLOW_LOOPBACK_ISSUER allows it', async () => {
    const issuer = await serveJson({ '/keys': () => ({ keys: [] }) });
    try {
      const auth = { issuer: issuer.origin, jwksUrl: `${issuer.origin}/keys` };
      const error = await refusal(() => serveHttp(plain(), { port: 0, publicUrl: 'https://mcp.example.com', allowedHosts: ['mcp.example.com'], auth }));
      expect(error.variable).toBe('AUTH_ISSUER');
      expect(error.message).toContain(`is "${issuer.origin}", a loopback address, while PUBLIC_URL is "https://mcp.example.com"`);
      expect(error.message).toContain('set AUTH_ALLOW_LOOPBACK_ISSUER=on');
      const allowed = servingOptionsFromEnvironment({ AUTH_ISSUER: issuer.origin, AUTH_JWKS_URL: `${issuer.origin}/keys`, AUTH_ALLOW_LOOPBACK_ISSUER: 'on', PUBLIC_URL: 'https://mcp.example.com', ALLOWED_HOSTS: 'mcp.example.com' });
      const served = await serveHttp(plain(), { ...allowed, port: 0, logger: quiet });
      await served.close();
      // A loopback PUBLIC_URL (local development) needs no setting.
      const local = await serveHttp(plain(), { port: 0, publicUrl: 'http://127.0.0.1:8000', auth, logger: quiet });
      await local.close();
    } finally {
      issuer.server.close();
    }
  });

  it("refuse a toolset whose credential header is 'authorization', which would receive the MCP token", async () => {
    const server = buildServer({ name: 'up', version: '1', toolsets: [UpstreamToolset], logger: quiet });
    const error = await refusal(() => serveHttp(server, { port: 0, auth: { issuer: 'https://auth.example.com', jwksUrl: 'https://auth.example.com/keys' } }));
    expect(error.message).toContain("toolset 'upstream' declares the credential header 'authorization': it would receive the MCP access token");
    expect(error.message).toContain("such as 'x-upstream-authorization'");
  });

  it("find the key set from the issuer's metadata (RFC 8414, then OpenID Connect), and refuse an issuer whose metadata names another", async () => {
    const oidc = await serveJson({ '/realms/mcp/.well-known/openid-configuration': (origin) => ({ issuer: `${origin}/realms/mcp`, jwks_uri: `${origin}/realms/mcp/certs` }) });
    const handle = await serveHttp(plain(), { port: 0, auth: { issuer: `${oidc.origin}/realms/mcp` } });
    expect(handle.mounts[0]!.oauth).toEqual({ resource: `${handle.origin}/mcp`, metadata: `${handle.origin}/.well-known/oauth-protected-resource/mcp`, issuer: `${oidc.origin}/realms/mcp` });
    await handle.close();

    const error = await refusal(() => serveHttp(plain(), { port: 0, auth: { issuer: `${oidc.origin}/realms/mcp/` } }));
    expect(error.variable).toBe('AUTH_ISSUER');
    expect(error.message).toContain(`/realms/mcp/.well-known/openid-configuration: its issuer is "${oidc.origin}/realms/mcp", not "${oidc.origin}/realms/mcp/"`);
    expect(error.message).toContain('or set AUTH_JWKS_URL to its key set');
    oidc.server.close();
  });

  it('say an issuer that cannot be reached is unreachable, with the error code and the URL tried, not that its identifier is wrong', async () => {
    // A port nothing listens on: taken, then let go.
    const probe = await serveJson({});
    const origin = probe.origin;
    await new Promise((closed) => probe.server.close(closed));
    const error = await refusal(() => serveHttp(plain(), { port: 0, auth: { issuer: origin } }));
    expect(error.variable).toBe('AUTH_ISSUER');
    expect(error.message).toBe(
      `Not starting: AUTH_ISSUER is "${origin}", which could not be reached (ECONNREFUSED at ${origin}/.well-known/oauth-authorization-server). ` +
        'Fix: start the issuer (to try one locally: toolsets-issuer, from @toolsets/testing), or check the host and port in AUTH_ISSUER',
    );
  });

  it("refuse a key set the issuer's metadata names over plain http, as AUTH_JWKS_URL would be", async () => {
    const issuer = await serveJson({ '/.well-known/oauth-authorization-server': (origin) => ({ issuer: origin, jwks_uri: 'http://keys.example.com/jwks' }) });
    try {
      const configured = await refusal(() => serveHttp(plain(), { port: 0, auth: { issuer: 'https://auth.example.com', jwksUrl: 'http://keys.example.com/jwks' } }));
      expect(configured.variable).toBe('AUTH_JWKS_URL');
      const discovered = await refusal(() => serveHttp(plain(), { port: 0, auth: { issuer: issuer.origin } }));
      expect(discovered.variable).toBe('AUTH_ISSUER');
      expect(discovered.message).toContain('names the key set "http://keys.example.com/jwks": keys must come over https');
      expect(discovered.message).toContain('Fix: have the issuer publish its jwks_uri over https, or set AUTH_JWKS_URL');
    } finally {
      issuer.server.close();
    }
  });

  it('keep a mount built with auth: false public while the app checks tokens elsewhere, and warn about scoped tools served without checks', async () => {
    const log = recordingLogger();
    const issuer = await serveJson({ '/.well-known/oauth-authorization-server': (origin) => ({ issuer: origin, jwks_uri: `${origin}/jwks` }) });
    const open = buildServer({ name: 'open', version: '1', toolsets: [GuardedToolset], logger: log.logger, auth: false });
    const handle = await serveHttp([open], { port: 0, auth: { issuer: issuer.origin }, logger: log.logger });
    expect(handle.mounts[0]!.oauth).toBeUndefined();
    expect(log.lines).toContainEqual({
      level: 'warn',
      message: 'tools declare scopes, but this mount checks no token: anyone who reaches it can call them (set AUTH_ISSUER)',
      fields: { server: 'open', scopes: 'guarded:use' },
    });
    const response = await fetch(handle.mounts[0]!.url, {
      method: 'POST',
      headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(response.status).toBe(200);
    expect((await fetch(`${handle.origin}/.well-known/oauth-protected-resource`)).status).toBe(404);
    await handle.close();
    issuer.server.close();
  });
});
