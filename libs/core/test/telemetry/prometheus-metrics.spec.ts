import 'reflect-metadata';
import { request } from 'node:http';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { buildServer, serveHttp, servingOptionsFromEnvironment, type HttpServerHandle } from '../../src';
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

const serve = (options: { metrics?: boolean; metricsPort?: number }) => {
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
  });
});
