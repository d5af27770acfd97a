import 'reflect-metadata';
import { createHash } from 'node:crypto';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyHttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { buildServer, defineView, Field, Prompt, RequireScopes, Resource, ResourceTemplate, serveHttp, Tool, ToolResult, Toolset, userMessage, type HttpServerHandle } from '../../src';
import { recordingLogger } from '../support/connect';

class Answer extends ToolResult {}

class UserArgs {
  @Field()
  id!: string;
}

@Toolset({ name: 'maps', description: 'Maps.' })
class MapsToolset {
  @Tool({ description: 'Find a place.', returns: Answer, annotations: { readOnlyHint: true } })
  find(): Answer {
    return { message: 'found' };
  }

  @Tool({ description: 'Draw a route.', returns: Answer })
  draw(): Answer {
    return { message: 'drawn' };
  }

  @Prompt({ description: 'Plan a trip.' })
  plan() {
    return [userMessage('Plan a trip.')];
  }

  @Resource({ uri: 'maps://legend', description: 'The legend.', mimeType: 'text/markdown' })
  legend() {
    return '# Legend';
  }

  @ResourceTemplate({ uriTemplate: 'maps://users/{id}', description: 'A user.', mimeType: 'application/json', args: UserArgs })
  user(args: UserArgs) {
    return JSON.stringify(args);
  }
}

const RouteView = defineView({ uri: 'ui://maps/route', html: `<!doctype html><p class="route">${'a "quoted" route \u00e9 '.repeat(2000)}</p>`, csp: { connectDomains: ['https://tiles.example.com'] } });

@Toolset({ name: 'routes', description: 'Routes.' })
class RoutesToolset {
  @Tool({ description: 'Show a route.', returns: Answer, view: RouteView })
  @RequireScopes('routes:read')
  route(): Answer {
    return { message: 'route' };
  }
}

@Toolset({ name: 'weather', description: 'Weather.' })
class WeatherToolset {
  @Tool({ description: 'Forecast.', returns: Answer, annotations: { readOnlyHint: true } })
  forecast(): Answer {
    return { message: 'sunny' };
  }
}

const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

interface Raw {
  status: number;
  type: string | null;
  etag: string | null;
  body: string;
}

/** A list request as the SDK's clients send it: a 2026-07-28 request with its envelope, or a 2025-era one. */
async function post(url: string, era: 'modern' | 'legacy', method: string, id: number | string, headers: Record<string, string> = {}, params?: object): Promise<Raw> {
  const modern = era === 'modern';
  const sent: Record<string, string> = {
    accept: 'application/json, text/event-stream',
    'content-type': 'application/json',
    'mcp-protocol-version': modern ? '2026-07-28' : '2025-11-25',
    ...(modern && { 'mcp-method': method }),
    ...headers,
  };
  // A header given as '' is left out (the case of a client that omits it).
  for (const [name, value] of Object.entries(sent)) if (value === '') delete sent[name];
  const response = await fetch(url, {
    method: 'POST',
    headers: sent,
    body: JSON.stringify({ method, jsonrpc: '2.0', id, ...(modern ? { params: { _meta: MODERN_META, ...params } } : params && { params }) }),
  });
  return { status: response.status, type: response.headers.get('content-type'), etag: response.headers.get('etag'), body: await response.text() };
}

/** The JSON-RPC message of an answer, from its JSON body or its one SSE event. */
function messageOf(raw: Raw): { result: Record<string, unknown> } {
  return JSON.parse(raw.type?.startsWith('text/event-stream') ? raw.body.replace(/^event: message\ndata: /, '').trim() : raw.body);
}

describe('list answers served from cache', () => {
  const definition = buildServer({ name: 'maps', version: '2.1.0', toolsets: [MapsToolset, WeatherToolset], logger: recordingLogger().logger });
  let cached: HttpServerHandle;
  let uncached: HttpServerHandle;

  beforeAll(async () => {
    cached = await serveHttp(definition, { port: 0 });
    uncached = await serveHttp(definition, { port: 0, cacheLists: false });
  });
  afterAll(async () => {
    await cached.close();
    await uncached.close();
  });

  const url = (handle: HttpServerHandle, query = '') => `${handle.mounts[0]!.url}${query}`;

  it.each([
    ['modern', 'tools/list'],
    ['modern', 'prompts/list'],
    ['modern', 'resources/list'],
    ['modern', 'resources/templates/list'],
    ['legacy', 'tools/list'],
    ['legacy', 'prompts/list'],
    ['legacy', 'resources/list'],
    ['legacy', 'resources/templates/list'],
  ] as const)('are byte for byte what the SDK sends (%s %s), request after request', async (era, method) => {
    const fromSdk = await post(url(uncached), era, method, 7);
    expect(fromSdk.status).toBe(200);
    expect(fromSdk.etag).toBeNull();
    for (const id of [7, 'seven', 7]) {
      const answer = await post(url(cached), era, method, id);
      const sdk = id === 7 ? fromSdk : await post(url(uncached), era, method, id);
      expect({ status: answer.status, type: answer.type, body: answer.body }).toEqual({ status: sdk.status, type: sdk.type, body: sdk.body });
      expect(answer.etag).toMatch(/^"[\w-]{22}"$/);
    }
  });

  it('send, as ETag, the hash of the list content: the same for both eras, another for another selection', async () => {
    const sdk = messageOf(await post(url(uncached), 'legacy', 'tools/list', 1));
    const expected = `"${createHash('sha256').update(JSON.stringify(sdk.result)).digest('base64url').slice(0, 22)}"`;
    expect((await post(url(cached), 'legacy', 'tools/list', 1)).etag).toBe(expected);
    expect((await post(url(cached), 'modern', 'tools/list', 1)).etag).toBe(expected);

    const weather = await post(url(cached, '?toolsets=weather'), 'modern', 'tools/list', 2);
    const weatherFromSdk = await post(url(uncached, '?toolsets=weather'), 'modern', 'tools/list', 2);
    expect(weather.body).toBe(weatherFromSdk.body);
    expect((messageOf(weather).result['tools'] as { name: string }[]).map((tool) => tool.name)).toEqual(['forecast']);
    expect(weather.etag).not.toBe(expected);
    const readonly = await post(url(cached), 'legacy', 'tools/list', 3, { 'x-mcp-readonly': '1' });
    expect((messageOf(readonly).result['tools'] as { name: string }[]).map((tool) => tool.name)).toEqual(['find', 'forecast']);
  });

  it('leave to the SDK what it would answer otherwise: a refused header, an unknown version, a cursor, a list the server lacks', async () => {
    const cases: [era: 'modern' | 'legacy', method: string, headers: Record<string, string>, params?: object][] = [
      ['modern', 'tools/list', { 'mcp-method': 'prompts/list' }],
      ['modern', 'tools/list', { 'mcp-method': '' }],
      ['legacy', 'tools/list', { 'mcp-protocol-version': '2099-01-01' }],
      ['legacy', 'tools/list', { accept: 'application/json' }],
      ['modern', 'tools/list', {}, { cursor: 'next' }],
      ['legacy', 'tools/list', {}, { cursor: 'next' }],
    ];
    const nullId = async (handle: HttpServerHandle) => {
      const response = await fetch(url(handle), {
        method: 'POST',
        headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json', 'mcp-protocol-version': '2025-11-25' },
        body: JSON.stringify({ jsonrpc: '2.0', id: null, method: 'tools/list' }),
      });
      return { status: response.status, body: await response.text(), etag: response.headers.get('etag') };
    };
    expect(await nullId(cached)).toEqual(await nullId(uncached));
    for (const [era, method, headers, params] of cases) {
      const answer = await post(url(cached), era, method, 9, headers, params);
      const sdk = await post(url(uncached), era, method, 9, headers, params);
      expect({ status: answer.status, body: answer.body, etag: answer.etag }).toEqual({ status: sdk.status, body: sdk.body, etag: null });
    }
    const bare = buildServer({ name: 'bare', version: '1', toolsets: [WeatherToolset] });
    const handle = await serveHttp(bare, { port: 0 });
    const sdkHandle = await serveHttp(bare, { port: 0, cacheLists: false });
    try {
      const answer = await post(handle.mounts[0]!.url, 'modern', 'prompts/list', 1);
      const sdk = await post(sdkHandle.mounts[0]!.url, 'modern', 'prompts/list', 1);
      expect({ status: answer.status, body: answer.body, etag: answer.etag }).toEqual({ status: sdk.status, body: sdk.body, etag: null });
    } finally {
      await handle.close();
      await sdkHandle.close();
    }
  });

  it.each(['modern', 'legacy'] as const)("answers resources/read of a tool's view from bytes serialised once, byte for byte the SDK's (%s)", async (era) => {
    const routes = buildServer({ name: 'routes', version: '1.0.0', toolsets: [RoutesToolset], logger: recordingLogger().logger });
    const [fast, sdk] = await Promise.all([serveHttp(routes, { port: 0, drainTimeoutMs: 300 }), serveHttp(routes, { port: 0, cacheLists: false, drainTimeoutMs: 300 })]);
    try {
      const read = (handle: HttpServerHandle, id: number | string) => post(handle.mounts[0]!.url, era, 'resources/read', id, era === 'modern' ? { 'mcp-name': 'ui://maps/route' } : {}, { uri: 'ui://maps/route' });
      for (const id of [3, 'three']) {
        const [answer, fromSdk] = [await read(fast, id), await read(sdk, id)];
        expect(fromSdk.status).toBe(200);
        expect({ status: answer.status, type: answer.type, body: answer.body }).toEqual({ status: fromSdk.status, type: fromSdk.type, body: fromSdk.body });
        expect(answer.etag).toMatch(/^"[\w-]{22}"$/);
      }
    } finally {
      await fast.close();
      await sdk.close();
    }
  });

  it("are read by the SDK's own clients of both eras", async () => {
    const modern = new Client({ name: 'modern', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await modern.connect(new StreamableHTTPClientTransport(new URL(url(cached))));
    const legacy = new LegacyClient({ name: 'legacy', version: '1' });
    await legacy.connect(new LegacyHttpTransport(new URL(url(cached))));
    try {
      for (const client of [modern, legacy] as unknown as Client[]) {
        expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['find', 'draw', 'forecast']);
        expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(['plan']);
        expect((await client.listResources()).resources.map((resource) => resource.uri)).toEqual(['maps://legend']);
        expect((await client.listResourceTemplates()).resourceTemplates.map((template) => template.uriTemplate)).toEqual(['maps://users/{id}']);
        expect((await client.callTool({ name: 'find' })).structuredContent).toEqual({ message: 'found' });
      }
    } finally {
      await modern.close();
      await legacy.close();
    }
  });
});

describe('the cache fields of the lists (ttlMs, cacheScope)', () => {
  it('carry the server’s listTtlMs, and cacheScope public where no token shapes them, alike from the cache and from the SDK, server/discover too', async () => {
    const definition = buildServer({ name: 'maps', version: '2.1.0', toolsets: [MapsToolset], listTtlMs: 300_000, logger: recordingLogger().logger });
    const cached = await serveHttp(definition, { port: 0 });
    const uncached = await serveHttp(definition, { port: 0, cacheLists: false });
    try {
      for (const method of ['tools/list', 'prompts/list', 'resources/list']) {
        const [fromCache, fromSdk] = await Promise.all([post(cached.mounts[0]!.url, 'modern', method, 1), post(uncached.mounts[0]!.url, 'modern', method, 1)]);
        expect(fromCache.body).toBe(fromSdk.body);
        expect(messageOf(fromCache).result).toMatchObject({ ttlMs: 300_000, cacheScope: 'public' });
      }
      expect(messageOf(await post(cached.mounts[0]!.url, 'modern', 'server/discover', 2)).result).toMatchObject({ ttlMs: 300_000, cacheScope: 'public' });
      // The 2025 era has no cache fields.
      expect(messageOf(await post(cached.mounts[0]!.url, 'legacy', 'tools/list', 3)).result).not.toHaveProperty('ttlMs');
    } finally {
      await cached.close();
      await uncached.close();
    }
  });

  it('refuses a TTL that is not a whole number of milliseconds, naming the setting', () => {
    expect(() => buildServer({ name: 'maps', version: '1', toolsets: [MapsToolset], listTtlMs: -1 })).toThrow(
      "buildServer 'maps': listTtlMs is -1. Fix: give a whole number of milliseconds, 0 or more, such as 300000 for five minutes.",
    );
    process.env['LIST_TTL_MS'] = '5m';
    try {
      expect(() => buildServer({ name: 'maps', version: '1', toolsets: [MapsToolset] })).toThrow("buildServer 'maps': LIST_TTL_MS is \"5m\".");
    } finally {
      delete process.env['LIST_TTL_MS'];
    }
  });
});

