import 'reflect-metadata';
import { buildServer, serveHttp, Tool, ToolResult, Toolset, type HttpServerHandle, type Logger } from '@toolsets/core';
import { startTestIssuer, type TestIssuer } from '../../src';

class Done extends ToolResult {}

@Toolset({ name: 'plain', description: 'One tool.' })
class PlainToolset {
  @Tool({ description: 'Ping.', returns: Done })
  ping(): Done {
    return { message: 'pong' };
  }
}

const quiet: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };
const COOLDOWN_MS = 400;

async function list(url: string, token: string): Promise<number> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });
  await response.text();
  return response.status;
}

// Real servers, an issuer and key fetches: on a loaded CI machine a test takes seconds, not milliseconds.
jest.setTimeout(30_000);

describe("the issuer's key set", () => {
  let issuer: TestIssuer;
  let http: HttpServerHandle;
  let url: string;
  /** How far the server's clock runs ahead of the wall clock. */
  let ahead = 0;

  beforeEach(async () => {
    ahead = 0;
    issuer = await startTestIssuer();
    const server = buildServer({ name: 'plain', version: '1.0.0', toolsets: [PlainToolset], logger: quiet });
    http = await serveHttp(server, { port: 0, drainTimeoutMs: 300, auth: { issuer: issuer.issuer, jwksCooldownMs: COOLDOWN_MS, now: () => Date.now() + ahead }, logger: quiet });
    url = http.mounts[0]!.url;
    issuer.audience = url;
  });
  afterEach(async () => {
    await http?.close();
    await issuer?.close();
  });

  it('is fetched once and kept: a hundred calls cost one fetch', async () => {
    const token = await issuer.mint();
    for (let i = 0; i < 100; i++) expect(await list(url, token)).toBe(200);
    expect(issuer.jwksFetches).toBe(1);
  });

  it('remembers a token that passed only until its exp: the same token is refused once expired', async () => {
    const token = await issuer.mint({ expiresIn: 30 });
    expect(await list(url, token)).toBe(200);
    expect(await list(url, token)).toBe(200);
    ahead = 30_100;
    expect(await list(url, token)).toBe(401);
  });

  it('picks up a rotated key with one more fetch, once the cooldown has passed', async () => {
    expect(await list(url, await issuer.mint())).toBe(200);
    await issuer.rotate();
    await new Promise((resolve) => setTimeout(resolve, COOLDOWN_MS + 100));
    const rotated = await issuer.mint();
    for (let i = 0; i < 20; i++) expect(await list(url, rotated)).toBe(200);
    expect(issuer.jwksFetches).toBe(2);
  });

  it('forgets a remembered token once the key that signed it has left the key set', async () => {
    const old = await issuer.mint();
    expect(await list(url, old)).toBe(200);
    await issuer.rotate();
    await new Promise((resolve) => setTimeout(resolve, COOLDOWN_MS + 100));
    // A token of the new key makes the server fetch the key set again: the old key is gone from it.
    expect(await list(url, await issuer.mint())).toBe(200);
    expect(issuer.jwksFetches).toBe(2);
    expect(await list(url, old)).toBe(401);
  });

  it('holds a flood of unknown key ids to the cooldown: at most one fetch per cooldown, every token refused', async () => {
    expect(await list(url, await issuer.mint())).toBe(200);
    const started = Date.now();
    const statuses = await Promise.all(Array.from({ length: 200 }, async (_, i) => list(url, await issuer.mint({ kid: `made-up-${i}` }))));
    const elapsed = Date.now() - started;
    expect(new Set(statuses)).toEqual(new Set([401]));
    // One fetch per cooldown the flood lasted (it lasts longer on a busy machine, so no fixed count), never one per token.
    expect(issuer.jwksFetches).toBeLessThanOrEqual(1 + Math.ceil(elapsed / COOLDOWN_MS));
    expect(issuer.jwksFetches).toBeLessThan(statuses.length);
  });

  it('fails closed with 503 and Retry-After when the key set cannot be fetched, and recovers when it can', async () => {
    issuer.down = true;
    const token = await issuer.mint();
    const response = await fetch(url, {
      method: 'POST',
      headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ping', arguments: {} } }),
    });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
    expect(await response.json()).toEqual({ error: 'temporarily_unavailable', error_description: 'The access token cannot be checked right now; retry shortly.' });
    issuer.down = false;
    expect(await list(url, token)).toBe(200);
  });

  it('fails closed when the issuer is unreachable altogether', async () => {
    const token = await issuer.mint();
    await issuer.close();
    expect(await list(url, token)).toBe(503);
  });
});
