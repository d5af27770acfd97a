import { brotliCompressSync, gzipSync } from 'node:zlib';
import { RequestContext, ToolError, type Logger, type ResultWithContent } from '@toolsets/core';
import { DEFAULT_MAX_RESPONSE_BYTES, OpenApiClient, settingsFromEnvironment, type ApiSettings, type OperationCall } from '../src';
import { dribble, endless, json, raw, redirect, startUpstream, type Upstream } from './support/hostile-upstream';

const KEY = 'sk-Live/Key+42=';

function context(signal: AbortSignal = new AbortController().signal): RequestContext {
  const headers: Record<string, string> = { 'x-api-key': KEY };
  return new RequestContext({
    transport: 'http',
    era: 'modern',
    toolset: 'items',
    tool: 't',
    credentialHeaders: ['x-api-key'],
    headers: { get: (name) => headers[name], entries: () => ({ ...headers }) },
    signal,
    client: () => undefined,
  });
}

/** Log lines as the client wrote them, to check what they name (and what they never carry). */
function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const write = (message: string, fields?: Record<string, unknown>) => void lines.push(JSON.stringify({ message, ...fields }));
  return { lines, info: write, warn: write, error: write };
}

const get = (path: string, extra: Partial<OperationCall> = {}): OperationCall => ({ method: 'GET', path, ...extra });

describe('an upstream that answers without end', () => {
  let upstream: Upstream;
  beforeAll(async () => {
    upstream = await startUpstream({
      '/v1/endless': endless(),
      '/v1/endless-error': endless(500, 'text/plain'),
      '/v1/dribble': dribble(),
      '/v1/declared-huge': raw(200, '[]', { 'content-type': 'application/json', 'content-length': String(DEFAULT_MAX_RESPONSE_BYTES + 1) }),
    });
  });
  afterAll(() => upstream.close());
  const client = (settings: Partial<ApiSettings> = {}, logger = recordingLogger()) => new OpenApiClient({ baseUrl: `${upstream.origin}/v1`, name: 'items', ...settings }, logger);

  it('stops reading a success body at the cap and says which variable raises it', async () => {
    const result = (await client({ maxResponseBytes: 256 * 1024 }).call(get('/endless'), context())) as ToolError;
    expect(result).toBeInstanceOf(ToolError);
    expect(result.error).toBe('upstream_too_large');
    expect(result.detail).toContain('larger than 262144 bytes');
    expect(result.detail).toContain('ITEMS_MAX_RESPONSE_BYTES');
  });

  it('refuses a Content-Length over the cap before reading the body', async () => {
    const result = (await client().call(get('/declared-huge'), context())) as ToolError;
    expect(result.error).toBe('upstream_too_large');
  });

  it('reads an endless error body only as far as its message needs', async () => {
    const result = (await client().call(get('/endless-error'), context())) as ToolError;
    expect(result.error).toBe('http_500');
    expect(result.detail.length).toBeLessThan(600);
  });

  it('times out a body that keeps streaming, with one deadline for the whole exchange', async () => {
    const started = Date.now();
    const result = (await client({ timeoutMs: 300 }).call(get('/dribble'), context())) as ToolError;
    expect(result.error).toBe('upstream_invalid_response');
    expect(result.detail).toContain('did not arrive in full (timed out after 300 ms)');
    // The body never ends: without the deadline this would not return at all (a bound any machine meets).
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  it("stops a body when the caller cancels the call, and closes the upstream's connection", async () => {
    const caller = new AbortController();
    // Cancelled once the body is flowing: after the upstream's second chunk has gone out.
    const closed = new Promise<void>((done) =>
      upstream.server.once('request', (_req, res) => {
        let chunks = 0;
        const write = res.write.bind(res) as (chunk: string) => boolean;
        res.write = ((chunk: string) => {
          const written = write(chunk);
          if (++chunks === 2) setImmediate(() => caller.abort());
          return written;
        }) as typeof res.write;
        res.once('close', () => done());
      }),
    );
    const result = (await client().call(get('/dribble'), context(caller.signal))) as ToolError;
    expect(result.error).toBe('upstream_invalid_response');
    expect(result.detail).toContain('did not arrive in full (the call was cancelled)');
    await closed;
  });

  it('sends nothing for a call cancelled before it starts', async () => {
    const caller = new AbortController();
    caller.abort();
    const before = upstream.seen.length;
    const result = (await client().call(get('/dribble'), context(caller.signal))) as ToolError;
    expect(result.error).toBe('upstream_unavailable');
    expect(result.detail).toContain('(the call was cancelled)');
    expect(upstream.seen.length).toBe(before);
  });

  it('stays within a bounded heap under 16 endless answers at once (each capped at the default 8 MiB)', async () => {
    const c = client();
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    try {
      const results = await Promise.all(Array.from({ length: 16 }, () => c.call(get('/endless'), context())));
      expect(results.map((r) => (r as ToolError).error)).toEqual(Array(16).fill('upstream_too_large'));
    } finally {
      clearInterval(sampler);
    }
    // 16 bodies of 8 MiB plus one copy each while joined: 256 MiB; before the cap this grew by gigabytes.
    expect((peak - baseline) / 2 ** 20).toBeLessThan(16 * 8 * 2 + 64);
    // Reading 128 MiB takes 3-4 s on a busy 2-core machine: the bound asserted is memory, not time.
  }, 30_000);
});

describe('path parameters', () => {
  let upstream: Upstream;
  beforeAll(async () => {
    upstream = await startUpstream({ '/v1/items/a%2Fb': json(200, { ok: true }), '/v1/items/%252e%252e': json(200, { ok: true }) });
  });
  afterAll(() => upstream.close());
  const client = () => new OpenApiClient({ baseUrl: `${upstream.origin}/v1`, credential: { header: 'x-api-key', sendAs: { in: 'header', name: 'x-api-key' } } }, recordingLogger());
  const del = (pathParams: Record<string, unknown>): OperationCall => ({ method: 'DELETE', path: '/items/{a}/{b}/{c}', pathParams });

  it.each([
    [{ a: '..', b: '..', c: '..' }, "'a' would make the path segment '..'"],
    [{ a: 'x', b: '.', c: 'y' }, "'b' would make the path segment '.'"],
    [{ a: 'x', b: 'y', c: '' }, "'c' would make the path segment empty"],
    [{ a: 'x', b: 'y' }, "'c' would make the path segment empty"],
  ])('refuses %j as an argument error naming the field, and sends nothing', async (pathParams, message) => {
    const before = upstream.seen.length;
    const result = (await client().call(del(pathParams), context())) as ToolError;
    expect(result.error).toBe('invalid_argument');
    expect(result.detail).toContain(message);
    expect(upstream.seen.length).toBe(before);
  });

  it('refuses parameters that together make a dot segment', async () => {
    const result = (await client().call({ method: 'GET', path: '/files/{name}{ext}', pathParams: { name: '.', ext: '.' } }, context())) as ToolError;
    expect(result.detail).toContain("'name' and 'ext' would make the path segment '..'");
  });

  it('sends every other value as one encoded segment under the base path', async () => {
    await client().call(get('/items/{id}', { pathParams: { id: 'a/b' } }), context());
    await client().call(get('/items/{id}', { pathParams: { id: '%2e%2e' } }), context());
    expect(upstream.seen.slice(-2).map((r) => r.url)).toEqual(['/v1/items/a%2Fb', '/v1/items/%252e%252e']);
  });
});

describe('redirects', () => {
  let upstream: Upstream;
  let elsewhere: Upstream;
  beforeAll(async () => {
    elsewhere = await startUpstream({ '/landing': json(200, { stolen: true }) });
    upstream = await startUpstream({
      '/v1/to-other-port': redirect(307, () => `${elsewhere.origin}/landing`),
      '/v1/to-other-host': redirect(302, (u) => `http://localhost:${u.port}/v1/pet`),
      '/v1/to-same-origin': redirect(302, () => '/v1/pet'),
      '/v1/see-other': redirect(303, () => '/v1/pet'),
      '/v1/loop': redirect(302, () => '/v1/loop'),
      '/v1/pet': json(200, { id: 7 }),
    });
  });
  afterAll(() => Promise.all([upstream.close(), elsewhere.close()]));
  const client = () =>
    new OpenApiClient({ baseUrl: `${upstream.origin}/v1`, credential: { header: 'x-api-key', sendAs: { in: 'header', name: 'x-api-key' } } }, recordingLogger());

  it('follows a redirect within the origin, keeping the credential', async () => {
    const result = await client().call(get('/to-same-origin'), context());
    expect(result).toEqual({ message: 'GET /v1/to-same-origin returned 200 OK.', status: 200, data: { id: 7 } });
    expect(upstream.seen.at(-1)).toMatchObject({ url: '/v1/pet', headers: { 'x-api-key': KEY } });
  });

  it('continues a 303 after a POST as a GET without the body', async () => {
    await client().call({ method: 'POST', path: '/see-other', body: { name: 'Rex' } }, context());
    expect(upstream.seen.at(-1)).toMatchObject({ method: 'GET', url: '/v1/pet' });
  });

  it.each([
    ['/to-other-port', 307, () => elsewhere.origin],
    ['/to-other-host', 302, () => `http://localhost:${upstream.port}`],
  ])('refuses %s as upstream_redirect naming the status and the origin only; nothing reaches the other origin', async (path, status, origin) => {
    const before = elsewhere.seen.length + upstream.seen.filter((r) => r.headers.host?.startsWith('localhost')).length;
    const result = (await client().call(get(path), context())) as ToolError;
    expect(result.error).toBe('upstream_redirect');
    expect(result.detail).toContain(`redirected (${status}) to ${origin()}, another origin`);
    expect(result.detail).not.toContain('/landing');
    expect(elsewhere.seen.length + upstream.seen.filter((r) => r.headers.host?.startsWith('localhost')).length).toBe(before);
  });

  it('stops after 5 redirects', async () => {
    const before = upstream.seen.length;
    const result = (await client().call(get('/loop'), context())) as ToolError;
    expect(result.error).toBe('upstream_redirect');
    expect(result.detail).toContain('more than 5 times');
    expect(upstream.seen.length - before).toBe(6);
  });
});

describe('a 2xx that is not what the document says', () => {
  let upstream: Upstream;
  beforeAll(async () => {
    upstream = await startUpstream({
      '/v1/truncated': raw(200, '{"id": 7, "name": "Re', { 'content-type': 'application/json' }),
      '/v1/html': raw(200, '<html><body>PAGE-CONTENT-1234</body></html>', { 'content-type': 'text/html' }),
      '/v1/short': (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
        res.write('{"id":');
        setTimeout(() => res.destroy(), 20);
      },
      '/v1/empty': raw(204, '', {}),
      '/v1/text': raw(200, 'pong', { 'content-type': 'text/plain' }),
    });
  });
  afterAll(() => upstream.close());

  it.each([
    ['/truncated', 'its body is not valid JSON', 'body is not valid JSON'],
    ['/html', 'its body is text/html, where the API', 'content-type text/html'],
    ['/short', 'its body did not arrive in full', 'body cut off'],
  ])('%s is upstream_invalid_response; the log says why and never quotes the body', async (path, detail, logged) => {
    const logger = recordingLogger();
    const result = (await new OpenApiClient({ baseUrl: `${upstream.origin}/v1` }, logger).call(get(path, { responseType: 'json' }), context())) as ToolError;
    expect(result).toBeInstanceOf(ToolError);
    expect(result.error).toBe('upstream_invalid_response');
    expect(result.detail).toContain(detail);
    expect(logger.lines.join('\n')).toContain(logged);
    expect(logger.lines.join('\n')).toContain(upstream.origin);
    for (const text of [...logger.lines, result.detail]) expect(text).not.toMatch(/PAGE-CONTENT|"Re|\{"id"/);
  });

  it('accepts an empty 2xx, and a non-JSON body where the document declares none', async () => {
    const client = new OpenApiClient({ baseUrl: `${upstream.origin}/v1` }, recordingLogger());
    expect(await client.call({ method: 'DELETE', path: '/empty', responseType: 'json' }, context())).toEqual({ message: 'DELETE /v1/empty returned 204 No Content.', status: 204 });
    expect(await client.call(get('/text'), context())).toEqual({ message: 'GET /v1/text returned 200 OK.', status: 200 });
  });
});

describe('compressed answers', () => {
  let upstream: Upstream;
  const pets = JSON.stringify({ pets: Array.from({ length: 200 }, (_, id) => ({ id, name: `pet ${id}` })) });
  beforeAll(async () => {
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20));
    upstream = await startUpstream({
      '/v1/gzip': (_req, res) => void res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(gzipSync(pets)),
      '/v1/br': (_req, res) => void res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'br' }).end(brotliCompressSync(pets)),
      '/v1/bomb': (_req, res) => void res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': String(bomb.length) }).end(bomb),
    });
  });
  afterAll(() => upstream.close());

  it.each(['/gzip', '/br'])('%s is decoded, as the upstream meant it', async (path) => {
    const result = await new OpenApiClient({ baseUrl: `${upstream.origin}/v1` }).call(get(path, { responseType: 'json' }), context());
    expect(result).toEqual({ message: `GET /v1${path} returned 200 OK.`, status: 200, data: JSON.parse(pets) });
    expect(upstream.seen.at(-1)?.headers['accept-encoding']).toBe('gzip, deflate, br');
  });

  it('caps the decoded bytes: a small gzip that inflates past the cap is upstream_too_large', async () => {
    const result = (await new OpenApiClient({ baseUrl: `${upstream.origin}/v1`, name: 'items', maxResponseBytes: 1024 * 1024 }).call(get('/bomb'), context())) as ToolError;
    expect(result.error).toBe('upstream_too_large');
  });
});

describe('error text', () => {
  let upstream: Upstream;
  const echo = (encode: (key: string) => string) => (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) =>
    void res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ message: `key ${encode(String(req.headers['x-api-key']))} is invalid` }));
  beforeAll(async () => {
    upstream = await startUpstream({
      '/v1/plain': echo((k) => k),
      '/v1/url-encoded': echo((k) => encodeURIComponent(k)),
      '/v1/url-encoded-lower': echo((k) => encodeURIComponent(k).toLowerCase()),
      '/v1/base64': echo((k) => Buffer.from(k).toString('base64')),
      '/v1/base64url': echo((k) => Buffer.from(k).toString('base64url')),
      '/v1/upper': echo((k) => k.toUpperCase()),
      '/v1/status-text': (req, res) => void res.writeHead(401, `bad key ${String(req.headers['x-api-key'])}`).end(),
    });
  });
  afterAll(() => upstream.close());
  const client = () => new OpenApiClient({ baseUrl: `${upstream.origin}/v1`, credential: { header: 'x-api-key', sendAs: { in: 'header', name: 'x-api-key' } } }, recordingLogger());

  it.each(['/plain', '/url-encoded', '/url-encoded-lower', '/base64', '/base64url', '/upper'])('redacts the credential echoed at %s', async (path) => {
    const result = (await client().call(get(path), context())) as ToolError;
    expect(result.detail).toBe(`GET /v1${path} returned 401 Unauthorized: key [redacted] is invalid`);
  });

  it('redacts every spelling the client put on the wire: HTTP Basic from a key without a colon, a query key with ~ ! \' ( ) *', async () => {
    const key = "sk_live~it's(odd)!*";
    const keyed = (): RequestContext =>
      new RequestContext({ transport: 'http', era: 'modern', toolset: 'items', tool: 't', credentialHeaders: ['x-api-key'], headers: { get: (name) => (name === 'x-api-key' ? key : undefined), entries: () => ({ 'x-api-key': key }) }, signal: new AbortController().signal, client: () => undefined });
    const echoing = await startUpstream({
      '/v1/basic': (req, res) => void res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ message: `bad credentials ${String(req.headers['authorization'])}` })),
      '/v1/query': (req, res) => void res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ message: `bad request ${req.url}` })),
    });
    try {
      const basic = new OpenApiClient({ baseUrl: `${echoing.origin}/v1`, credential: { header: 'x-api-key', sendAs: { in: 'basic' } } }, recordingLogger());
      const sentBasic = (await basic.call(get('/basic'), keyed())) as ToolError;
      expect(sentBasic.detail).toBe('GET /v1/basic returned 401 Unauthorized: bad credentials Basic [redacted]');
      const query = new OpenApiClient({ baseUrl: `${echoing.origin}/v1`, credential: { header: 'x-api-key', sendAs: { in: 'query', name: 'api_key' } } }, recordingLogger());
      const sentQuery = (await query.call(get('/query'), keyed())) as ToolError;
      expect(sentQuery.detail).toBe('GET /v1/query returned 401 Unauthorized: bad request /v1/query?api_key=[redacted]');
    } finally {
      await echoing.close();
    }
  });

  it("keeps the declared media type of a binary answer when the upstream's is not among those declared", async () => {
    const html = await startUpstream({
      '/v1/invoice': (_req, res) => void res.writeHead(200, { 'content-type': 'text/html; profile=mcp-app' }).end('<script>alert(1)</script>'),
      '/v1/scan': (_req, res) => void res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from([0x89, 0x50])),
    });
    try {
      const client = new OpenApiClient({ baseUrl: `${html.origin}/v1`, name: 'billing' });
      const invoice = (await client.call(get('/invoice', { responseType: 'binary', accept: 'application/pdf' }), context())) as ResultWithContent<{ mediaType: string }>;
      expect(invoice.result.mediaType).toBe('application/pdf');
      expect(invoice.content).toEqual([expect.objectContaining({ type: 'resource', resource: expect.objectContaining({ mimeType: 'application/pdf' }) })]);
      // One of the declared types (here through image/*) is passed on as the upstream sent it.
      const scan = (await client.call(get('/scan', { responseType: 'binary', accept: 'application/pdf, image/*' }), context())) as ResultWithContent<{ mediaType: string }>;
      expect(scan.result.mediaType).toBe('image/png');
    } finally {
      await html.close();
    }
  });

  it("never repeats the upstream's own reason phrase", async () => {
    const result = (await client().call(get('/status-text'), context())) as ToolError;
    expect(result.detail).toBe('GET /v1/status-text returned 401 Unauthorized.');
  });

  it('names "the upstream API", never its address; the log holds the origin', async () => {
    const closed = await startUpstream();
    await closed.close();
    const logger = recordingLogger();
    const result = (await new OpenApiClient({ baseUrl: `${closed.origin}/v1` }, logger).call(get('/pet'), context())) as ToolError;
    expect(result.detail).toBe('GET /v1/pet: the upstream API did not answer (connection refused). Try again later.');
    expect(logger.lines.join('\n')).toContain(closed.origin);
  });
});

describe('settings from the environment', () => {
  it('take the body cap from <NAME>_MAX_RESPONSE_BYTES, and refuse one that is not a positive integer', () => {
    expect(settingsFromEnvironment('my-api', { baseUrl: 'https://doc.example' }, { MY_API_MAX_RESPONSE_BYTES: '1024' }).maxResponseBytes).toBe(1024);
    expect(() => settingsFromEnvironment('my-api', { baseUrl: 'https://doc.example' }, { MY_API_MAX_RESPONSE_BYTES: '8MB' })).toThrow(
      'MY_API_MAX_RESPONSE_BYTES must be a positive integer of bytes, got "8MB".',
    );
  });
});
