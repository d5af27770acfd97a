import 'reflect-metadata';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { buildServer, serveHttp, servingOptionsFromEnvironment, type HttpServeOptions, type HttpServerHandle, type ServerDefinition } from '../../src';
import { loadMetricsPackages, METRICS_PACKAGES } from '../../src/transport/http/metrics-endpoint';
import { recordingLogger } from '../support/connect';
import { parsePrometheus } from '../support/prometheus-text';
import { WeatherToolset } from '../support/weather-toolset';

/** A raw GET, so the Host header is exactly what the test says. */
function get(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, type: String(res.headers['content-type']), body }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function callTools(http: HttpServerHandle, cities: string[]) {
  const client = new Client({ name: 'scraped', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(http.mounts[0]!.url)));
  for (const city of cities) await client.callTool({ name: 'get_weather', arguments: { city } });
  await client.close();
}

const serve = (options: Pick<HttpServeOptions, 'metrics' | 'metricsPort' | 'metricsToken' | 'auth'>) => {
  const logger = recordingLogger().logger;
  return serveHttp(buildServer({ name: 'weather', version: '1', toolsets: [WeatherToolset], logger }), { port: 0, logger, drainDelayMs: 0, ...options });
};

describe('METRICS=on: /metrics on the MCP port', () => {
  let http: HttpServerHandle;
  beforeAll(async () => (http = await serve({ metrics: true })));
  afterAll(() => http.close());

  it('exposes the request-duration histogram in the Prometheus text format, by tool and outcome', async () => {
    await callTools(http, ['Oslo', 'Bergen', 'Atlantis']);
    expect(http.metricsUrl).toBe(`${http.origin}/metrics`);
    const scraped = await get(http.metricsUrl!);
    expect(scraped.status).toBe(200);
    expect(scraped.type).toMatch(/^text\/plain/);
    const exposition = parsePrometheus(scraped.body);
    const calls = exposition.histogram('mcp_server_operation_duration_seconds').filter((m) => m.labels['mcp_method_name'] === 'tools/call' && m.labels['gen_ai_tool_name'] === 'get_weather');
    const ok = calls.find((m) => m.labels['error_type'] === undefined)!;
    const failed = calls.find((m) => m.labels['error_type'] === 'tool_error')!;
    expect(ok.count).toBe(2);
    expect(failed.count).toBe(1);
    expect(ok.sum).toBeGreaterThan(0);
    expect(ok.buckets.get('+Inf')).toBe(2);
    expect([...ok.buckets.keys()]).toEqual(expect.arrayContaining(['0.01', '0.1', '1', '300']));
    expect(ok.labels).toMatchObject({ gen_ai_operation_name: 'execute_tool', network_transport: 'tcp', mcp_protocol_version: expect.any(String) });
    expect(scraped.body).not.toContain('Atlantis');
  });

  it('answers only GET, and only for an allowed Host', async () => {
    expect((await get(http.metricsUrl!, {}, 'POST')).status).toBe(405);
    const foreign = await get(http.metricsUrl!, { host: 'attacker.example' });
    expect(foreign.status).toBe(403);
    expect(foreign.body).not.toContain('mcp_server');
  });
});

describe('METRICS_PORT: /metrics on a port of its own', () => {
  let http: HttpServerHandle;
  beforeAll(async () => (http = await serve({ metrics: true, metricsPort: 0 })));
  afterAll(() => http.close());

  it('serves /metrics there alone, behind the same Host policy, and not on the MCP port', async () => {
    await callTools(http, ['Oslo']);
    const metricsOrigin = new URL(http.metricsUrl!).origin;
    expect(metricsOrigin).not.toBe(http.origin);
    expect(parsePrometheus((await get(http.metricsUrl!)).body).types.get('mcp_server_operation_duration_seconds')).toBe('HISTOGRAM');
    expect((await get(`${http.origin}/metrics`)).status).toBe(404);
    expect((await get(`${metricsOrigin}/health`)).status).toBe(404);
    expect((await get(http.metricsUrl!, { host: 'attacker.example' })).status).toBe(403);
  });
});

describe('without METRICS', () => {
  it('has no /metrics', async () => {
    const http = await serve({});
    expect(http.metricsUrl).toBeUndefined();
    expect((await get(`${http.origin}/metrics`)).status).toBe(404);
    await http.close();
  });
});

describe('the METRICS variables', () => {
  it('turn metrics on, and refuse settings that could not work', () => {
    expect(servingOptionsFromEnvironment({ METRICS: 'on' })).toMatchObject({ metrics: true });
    expect(servingOptionsFromEnvironment({ METRICS: 'on', METRICS_PORT: '9464' })).toMatchObject({ metrics: true, metricsPort: 9464 });
    expect(servingOptionsFromEnvironment({}).metrics).toBeUndefined();
    expect(() => servingOptionsFromEnvironment({ METRICS_PORT: '9464' })).toThrow('METRICS_PORT is set ("9464") while METRICS is off, so nothing would listen there. Set METRICS=on, or unset METRICS_PORT.');
    expect(() => servingOptionsFromEnvironment({ METRICS: 'on', METRICS_PORT: '8000' })).toThrow(/METRICS_PORT is 8000, the MCP port \(PORT\)/);
    expect(() => servingOptionsFromEnvironment({ METRICS: 'yes' })).toThrow('METRICS must be on or off, got "yes".');
    expect(() => servingOptionsFromEnvironment({ METRICS: 'on', METRICS_PORT: 'ninety' })).toThrow(/METRICS_PORT must be an integer/);
    expect(servingOptionsFromEnvironment({ METRICS: 'on', METRICS_TOKEN: 'scrape-secret' })).toMatchObject({ metrics: true, metricsToken: 'scrape-secret' });
    expect(() => servingOptionsFromEnvironment({ METRICS_TOKEN: 'scrape-secret' })).toThrow('METRICS_TOKEN is set while METRICS is off');
  });
});

/** A tools/call for a tool the server does not have, as any caller can send it. */
async function callUnknown(client: Client, name: string): Promise<void> {
  await client.callTool({ name, arguments: {} }).then(
    () => {
      throw new Error(`'${name.slice(0, 20)}…' was answered as a tool`);
    },
    (error: Error) => expect(error.message).toContain('Unknown tool'),
  );
}

describe('/metrics under made-up tool names', () => {
  let http: HttpServerHandle;
  let definition: ServerDefinition;
  beforeAll(async () => {
    const logger = recordingLogger().logger;
    definition = buildServer({ name: 'weather', version: '1', toolsets: [WeatherToolset], logger });
    http = await serveHttp(definition, { port: 0, logger, drainDelayMs: 0, metrics: true });
  });
  afterAll(() => http.close());

  it('labels names the catalog lacks as one _OTHER series, however long or many, so a scrape still works and real tools keep their own series', async () => {
    // Most calls over the same server definition in memory (the same telemetry, a fraction of HTTP's cost), some over HTTP.
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const connection = await definition.connect(serverSide);
    const client = new Client({ name: 'hostile', version: '1' });
    await client.connect(clientSide);
    const overHttp = new Client({ name: 'hostile-http', version: '1' });
    await overHttp.connect(new StreamableHTTPClientTransport(new URL(http.mounts[0]!.url)));
    // 60 names of 590,000 characters once made the next scrape throw RangeError: Invalid string length and end the process.
    for (let i = 0; i < 60; i++) await callUnknown(i % 10 === 0 ? overHttp : client, `${i}${'x'.repeat(590_000)}`);
    // 2,100 short names once filled the SDK's 2,000-series limit, and real tools' figures fell into its overflow series.
    for (let i = 0; i < 2_100; i++) await callUnknown(i % 100 === 0 ? overHttp : client, `made_up_${i}`);
    await overHttp.callTool({ name: 'get_weather', arguments: { city: 'Oslo' } });
    await Promise.all([client.close(), overHttp.close()]);
    await connection.close();

    const scraped = await get(http.metricsUrl!);
    expect(scraped.status).toBe(200);
    expect(scraped.body.length).toBeLessThan(200_000);
    const calls = parsePrometheus(scraped.body).histogram('mcp_server_operation_duration_seconds').filter((m) => m.labels['mcp_method_name'] === 'tools/call');
    // One series per tool label and transport (in memory, HTTP): the made-up names add none.
    expect([...new Set(calls.map((m) => m.labels['gen_ai_tool_name']))].sort()).toEqual(['_OTHER', 'get_weather']);
    expect(calls.length).toBe(3);
    const count = (tool: string) => calls.filter((m) => m.labels['gen_ai_tool_name'] === tool).reduce((sum, m) => sum + m.count, 0);
    expect(count('_OTHER')).toBe(2_160);
    expect(count('get_weather')).toBe(1);
    expect(scraped.body).not.toContain('otel_metric_overflow');
  }, 120_000);

  it('labels a protocol version the server does not speak as _OTHER', async () => {
    const response = await fetch(http.mounts[0]!.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': `2099-${'9'.repeat(5_000)}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    await response.text();
    const scraped = await get(http.metricsUrl!);
    expect(scraped.body).not.toContain('2099-');
    expect(scraped.body).not.toMatch(/mcp_protocol_version="[^"]{129,}"/);
  });
});

describe('/metrics beside mounts that check access tokens', () => {
  const auth = { issuer: 'http://127.0.0.1:9/', jwksUrl: 'http://127.0.0.1:9/jwks' };

  it('refuses to serve them on the MCP port to anyone: METRICS_PORT or METRICS_TOKEN is needed', async () => {
    const error = await serve({ metrics: true, auth } ).then(
      async (handle) => {
        await handle.close();
        return undefined;
      },
      (refusal: Error) => refusal,
    );
    expect(error?.message).toContain('Not starting: METRICS is on while a mount checks access tokens');
    expect(error?.message).toContain('set METRICS_PORT to a port only your scraper reaches');
  });

  it('answers 401 without the METRICS_TOKEN bearer token and the exposition with it', async () => {
    const http = await serve({ metrics: true, metricsToken: 'scrape-secret', auth } );
    try {
      const anonymous = await get(http.metricsUrl!);
      expect(anonymous.status).toBe(401);
      expect(anonymous.body).not.toContain('get_weather');
      expect((await get(http.metricsUrl!, { authorization: 'Bearer wrong' })).status).toBe(401);
      const scraped = await get(http.metricsUrl!, { authorization: 'Bearer scrape-secret' });
      expect(scraped.status).toBe(200);
      expect(parsePrometheus(scraped.body).types.size).toBeGreaterThan(0);
    } finally {
      await http.close();
    }
  });

  it('serves them on METRICS_PORT without a token, where only the scraper reaches', async () => {
    const http = await serve({ metrics: true, metricsPort: 0, auth } );
    expect((await get(http.metricsUrl!)).status).toBe(200);
    await http.close();
  });
});

describe('the optional metrics packages', () => {
  it('are optional peers of core, at the ranges the missing-package error tells users to install', () => {
    const manifest = JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf-8')) as Record<string, Record<string, unknown>>;
    for (const [name, range] of Object.entries(METRICS_PACKAGES)) {
      expect(manifest['dependencies']).not.toHaveProperty([name]);
      expect(manifest['peerDependencies']?.[name]).toBe(range);
      expect(manifest['peerDependenciesMeta']?.[name]).toEqual({ optional: true });
    }
  });

  it('missing, make METRICS=on fail at startup naming what to install', () => {
    // Resolved from an empty folder, as in an install without them: Node's own MODULE_NOT_FOUND.
    const empty = mkdtempSync(join(tmpdir(), 'no-metrics-'));
    const elsewhere = createRequire(join(empty, 'index.js'));
    const withoutSdk = (name: string) => (name === '@opentelemetry/sdk-metrics' ? elsewhere(name) : require(name));
    expect(() => loadMetricsPackages(withoutSdk)).toThrow(
      'METRICS is on, and /metrics needs @opentelemetry/sdk-metrics, which is not installed: @toolsets/core leaves the metrics SDK optional, as most servers never serve /metrics. Fix: npm install @opentelemetry/sdk-metrics@^2.12.0 @opentelemetry/exporter-prometheus@0.223.0, or turn METRICS off.',
    );
    expect(() => loadMetricsPackages(elsewhere)).toThrow('needs @opentelemetry/sdk-metrics and @opentelemetry/exporter-prometheus, which are not installed');
    rmSync(empty, { recursive: true, force: true });
  });

  it('present, load (an error other than their absence is not hidden)', () => {
    expect(loadMetricsPackages().sdk.MeterProvider).toBeDefined();
    expect(() =>
      loadMetricsPackages(() => {
        throw new SyntaxError('Unexpected token in @opentelemetry/sdk-metrics');
      }),
    ).toThrow(SyntaxError);
  });
});
