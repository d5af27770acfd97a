import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RequestContext, ToolError } from '@toolsets/core';
import { OpenApiClient, settingsFromEnvironment } from '../src';

/** A real upstream on loopback, implementing a few petstore routes. */
function startUpstream(): Promise<{ server: Server; origin: string; seen: { url: string; headers: Record<string, unknown>; body: string }[] }> {
  const seen: { url: string; headers: Record<string, unknown>; body: string }[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      seen.push({ url: req.url ?? '', headers: req.headers, body });
      const json = (status: number, value: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      if (req.url === '/v2/pet/7') return json(200, { id: 7, name: 'Rex', undeclared: true });
      if (req.url === '/v2/pet/404') return json(404, { code: 1, message: 'Pet not found' });
      if (req.url?.startsWith('/v2/pet/findByStatus')) return json(200, [{ id: 1, name: 'a' }]);
      if (req.url === '/v2/echo-key') return json(401, { message: `key ${String(req.headers['x-api-key'])} is invalid` });
      if (req.url === '/v2/slow') {
        // The client gives up first; the timer must not outlive the request (Jest would wait for it).
        const timer = setTimeout(() => json(200, {}), 2_000);
        return void res.once('close', () => clearTimeout(timer));
      }
      if (req.url === '/v2/text') return res.writeHead(200, { 'content-type': 'text/plain' }).end('pong');
      json(500, { message: 'unexpected route' });
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen })));
}

function contextWith(headers: Record<string, string>, signal = new AbortController().signal): RequestContext {
  return new RequestContext({
    transport: 'http',
    era: 'modern',
    toolset: 'petstore',
    tool: 't',
    credentialHeaders: ['x-petstore-key'],
    headers: { get: (name) => headers[name], entries: () => ({ ...headers }) },
    signal,
    client: () => undefined,
  });
}

describe('OpenApiClient against a local upstream', () => {
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  beforeAll(async () => {
    upstream = await startUpstream();
  });
  afterAll(() => new Promise((done) => upstream.server.close(done)));

  const client = (extra: Partial<ConstructorParameters<typeof OpenApiClient>[0]> = {}) =>
    new OpenApiClient({ baseUrl: `${upstream.origin}/v2`, credential: { header: 'x-petstore-key', sendAs: { in: 'header', name: 'api_key' } }, ...extra });
  const context = contextWith({ 'x-petstore-key': 'sk-123' });

  it('returns the status, the JSON body as data and a message, sending the credential as the scheme says', async () => {
    const result = await client().call({ method: 'GET', path: '/pet/{petId}', pathParams: { petId: 7 } }, context);
    expect(result).toEqual({ message: 'GET /v2/pet/7 returned 200 OK.', status: 200, data: { id: 7, name: 'Rex', undeclared: true } });
    expect(upstream.seen.at(-1)!.headers['api_key']).toBe('sk-123');
  });

  it('sends query arrays as repeated keys, and non-object bodies as they are', async () => {
    const result = await client().call({ method: 'GET', path: '/pet/findByStatus', query: { status: ['available', 'sold'], skip: undefined } }, context);
    expect(upstream.seen.at(-1)!.url).toBe('/v2/pet/findByStatus?status=available&status=sold');
    expect(result).toMatchObject({ status: 200, data: [{ id: 1, name: 'a' }] });
  });

  it("turns a non-2xx answer into a ToolError http_<status> carrying the upstream's message", async () => {
    const result = await client().call({ method: 'GET', path: '/pet/{petId}', pathParams: { petId: 404 } }, context);
    expect(result).toBeInstanceOf(ToolError);
    expect(result).toEqual(expect.objectContaining({ error: 'http_404', detail: 'GET /v2/pet/404 returned 404 Not Found: Pet not found' }));
  });

  it('never repeats the credential, even when the upstream echoes it', async () => {
    const keyed = new OpenApiClient({ baseUrl: `${upstream.origin}/v2`, credential: { header: 'x-petstore-key', sendAs: { in: 'header', name: 'x-api-key' } } });
    const result = (await keyed.call({ method: 'GET', path: '/echo-key' }, context)) as ToolError;
    expect(result.detail).toBe('GET /v2/echo-key returned 401 Unauthorized: key [redacted] is invalid');
  });

  it('sends a bearer token when the scheme is http bearer', async () => {
    const bearer = new OpenApiClient({ baseUrl: `${upstream.origin}/v2`, credential: { header: 'x-petstore-key', sendAs: { in: 'bearer' } } });
    await bearer.call({ method: 'POST', path: '/pet/{petId}', pathParams: { petId: 7 }, body: { name: 'Rex' } }, context);
    expect(upstream.seen.at(-1)!.headers['authorization']).toBe('Bearer sk-123');
    expect(upstream.seen.at(-1)!.body).toBe('{"name":"Rex"}');
  });

  it("sends the settings' fixed headers on every call, over a call's header of the same name in any case, and the credential over both", async () => {
    const pinned = new OpenApiClient({
      baseUrl: `${upstream.origin}/v2`,
      headers: { 'Notion-Version': '2022-06-28', 'x-api-key': 'not-the-credential' },
      credential: { header: 'x-petstore-key', sendAs: { in: 'header', name: 'x-api-key' } },
    });
    await pinned.call({ method: 'GET', path: '/pet/{petId}', pathParams: { petId: 7 }, headers: { 'notion-VERSION': '1999-01-01' } }, context);
    const { headers } = upstream.seen.at(-1)!;
    expect(headers['notion-version']).toBe('2022-06-28');
    expect(headers['x-api-key']).toBe('sk-123');
  });

  it('gives no data for a body that is not JSON', async () => {
    expect(await client().call({ method: 'GET', path: '/text' }, context)).toEqual({ message: 'GET /v2/text returned 200 OK.', status: 200 });
  });

  it('reports a refused connection and a timeout as upstream_unavailable, without the query string', async () => {
    const closed = await startUpstream();
    const origin = closed.origin;
    await new Promise((done) => closed.server.close(done));
    const refused = (await new OpenApiClient({ baseUrl: origin }).call({ method: 'GET', path: '/pet', query: { token: 'q-secret' } }, context)) as ToolError;
    expect(refused).toEqual(expect.objectContaining({ error: 'upstream_unavailable' }));
    expect(refused.detail).toBe('GET /pet: the upstream API did not answer (connection refused). Try again later.');
    const slow = (await client({ timeoutMs: 200 }).call({ method: 'GET', path: '/slow' }, context)) as ToolError;
    expect(slow.detail).toContain('did not answer (timed out after 200 ms)');
  });
});

describe('settings from the environment', () => {
  it('take the base URL from <NAME>_BASE_URL over the document default, and refuse one that is not a URL', () => {
    expect(settingsFromEnvironment('pet-store', { baseUrl: 'https://doc.example/v2' }, { PET_STORE_BASE_URL: 'http://127.0.0.1:9/v2' }).baseUrl).toBe('http://127.0.0.1:9/v2');
    expect(settingsFromEnvironment('pet-store', { baseUrl: 'https://doc.example/v2' }, {}).baseUrl).toBe('https://doc.example/v2');
    expect(() => settingsFromEnvironment('pet-store', { baseUrl: 'x' }, { PET_STORE_BASE_URL: 'not a url' })).toThrow(
      'PET_STORE_BASE_URL must be an absolute URL such as https://api.example.com/v1, got "not a url".',
    );
  });
});
