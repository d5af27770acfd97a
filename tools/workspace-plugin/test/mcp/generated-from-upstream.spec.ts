import 'reflect-metadata';
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { buildServer, type ClassType, type ServerDefinition } from '@toolsets/core';
import { closeUpstreams } from '@toolsets/mcp-upstream';
import { connectToolset, type ToolsetClient } from '@toolsets/testing';
import { generateMcpToolset } from '../../src/mcp/generate-mcp-toolset';
import type { McpConfig } from '../../src/mcp/mcp-config';
import { readUpstream, type UpstreamSnapshot } from '../../src/mcp/upstream-snapshot';
import { loadGeneratedSources } from '../../src/openapi/load-generated';

const FIXTURE = join(__dirname, '../fixtures/mcp-upstream-server.cjs');
const stdioSource = { command: process.execPath, args: [FIXTURE, 'stdio'] };

/** The log lines the app wrote, to check what reaches the log (and what never does). */
const logged: { level: string; message: string; fields?: unknown }[] = [];
const logger = {
  info: (message: string, fields?: unknown) => void logged.push({ level: 'info', message, fields }),
  warn: (message: string, fields?: unknown) => void logged.push({ level: 'warn', message, fields }),
  error: (message: string, fields?: unknown) => void logged.push({ level: 'error', message, fields }),
};

/** A generated library over the fixture, loaded as the app would build it; `env` as the app's environment. */
function serve(name: string, snapshot: UpstreamSnapshot, config: McpConfig): ServerDefinition {
  const generated = generateMcpToolset(name, snapshot, config);
  const exported = loadGeneratedSources(generated.files) as Record<string, ClassType>;
  return buildServer({ name: 'app', version: '1', toolsets: [exported[generated.className]!], logger });
}

function structured(result: { structuredContent?: unknown }): Record<string, unknown> {
  return result.structuredContent as Record<string, unknown>;
}

function text(result: { content?: unknown }): string {
  return ((result.content ?? []) as { type: string; text?: string }[]).filter((block) => block.type === 'text').map((block) => block.text).join('\n');
}

describe('a toolset generated from a live MCP server over stdio (a 2025-era server on the v1 SDK)', () => {
  let snapshot: UpstreamSnapshot;
  let server: ServerDefinition;
  let client: ToolsetClient;

  beforeAll(async () => {
    process.env['UPSTREAM_SECRET_VALUE'] = 'sekret-value-4711';
    snapshot = await readUpstream({ source: stdioSource });
    server = serve('weather', snapshot, { name: 'weather', source: stdioSource, secrets: { UPSTREAM_SECRET: 'UPSTREAM_SECRET_VALUE' }, tools: { slow: {} } });
    client = await connectToolset(server);
  });
  afterAll(async () => {
    await client?.close();
    await closeUpstreams();
    delete process.env['UPSTREAM_SECRET_VALUE'];
  });

  it('reads what the server offers into the snapshot: its tools, instructions, identity and era', () => {
    expect(snapshot.server).toMatchObject({ name: 'weather-fixture', version: '1.0.0' });
    expect(snapshot.era).toBe('legacy');
    expect(snapshot.instructions).toBe('Weather forecasts and alerts for cities.');
    expect(snapshot.tools.map((tool) => tool.name)).toEqual(['get_forecast', 'echo', 'fail', 'broken_forecast', 'slow', 'whoami', 'crash', 'upgrade']);
  });

  it("advertises each tool with arguments typed from its inputSchema and a result typed from its outputSchema ($defs included)", async () => {
    const tools = await client.listTools();
    const forecast = tools.find((tool) => tool.name === 'get_forecast')!;
    expect(forecast.title).toBe('Forecast');
    expect(forecast.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: true });
    // Its icons as the upstream gave them, but for the plain http one, which the generator left out, saying so.
    expect(forecast.icons).toEqual([{ src: 'https://weather.example.com/sun.png', mimeType: 'image/png', sizes: ['48x48'] }]);
    expect(generateMcpToolset('weather', snapshot, { name: 'weather', source: stdioSource }).warnings).toContain(
      'get_forecast: its icon "http://weather.example.com/sun.svg" is left out: clients show only https and data:image icons',
    );
    expect(forecast.inputSchema).toMatchObject({ type: 'object', required: ['city'], properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1, maximum: 7 } } });
    const [answer] = (forecast.outputSchema as { anyOf: { properties: { data: { properties: Record<string, unknown>; required: string[] } } }[] }).anyOf;
    const data = answer!.properties.data;
    expect(data.required).toEqual(['city', 'temperature', 'conditions']);
    expect(data.properties['conditions']).toMatchObject({ enum: ['sunny', 'cloudy', 'rain'] });
    expect(data.properties['wind']).toMatchObject({ type: 'object', properties: { speed: { type: 'number' }, direction: { type: 'string' } }, required: ['speed'] });
  });

  it('says in the schema when a tool declares no output schema: a content-only result, not an open one', async () => {
    const echo = (await client.listTools()).find((tool) => tool.name === 'echo')!;
    const [answer, error] = (echo.outputSchema as { anyOf: { title: string; description: string; properties: object }[] }).anyOf;
    expect(Object.keys(answer!.properties)).toEqual(['message']);
    expect(answer!.description).toContain('content only: the upstream tool declares no output schema');
    expect(error!.title).toBe('ToolError');
  });

  it('lists the pinned catalog from the library, never from the upstream: the same tools, schemas and all, where its child cannot even start', async () => {
    const gone = { command: process.execPath, args: [join(__dirname, '../fixtures/no-such-upstream-server.cjs'), 'stdio'] };
    // A library of its own name: a library's upstream is one per process, registered under its name.
    const pinned = await connectToolset(serve('weather-pinned', snapshot, { name: 'weather-pinned', source: gone, secrets: { UPSTREAM_SECRET: 'UPSTREAM_SECRET_VALUE' }, tools: { slow: {} } }));
    try {
      // Each tool names its toolset: the one difference is the library's name.
      const listed = JSON.stringify(await pinned.listTools()).replaceAll('"weather-pinned"', '"weather"');
      expect(JSON.parse(listed)).toEqual(await client.listTools());
      // The upstream is indeed out of reach: a call finds it so.
      expect(structured(await pinned.call('get_forecast', { city: 'Oslo' }))).toMatchObject({ error: 'upstream_unavailable' });
    } finally {
      await pinned.close();
    }
  });

  it('calls the upstream and returns its structured result as data, validated against the advertised schema', async () => {
    const result = await client.call('get_forecast', { city: 'Oslo', days: 2 });
    expect(result.isError).toBeFalsy();
    expect(structured(result)).toEqual({ message: 'The upstream tool get_forecast answered.', data: { city: 'Oslo', temperature: 21.5, conditions: 'sunny', wind: { speed: 12, direction: 'NW' } } });
  });

  it('passes a content-only answer on: its text as the message, its image as a content block', async () => {
    const result = await client.call('echo', { message: 'hi' });
    expect(structured(result)).toEqual({ message: 'You said: hi' });
    expect((result.content as { type: string; mimeType?: string }[]).map((block) => [block.type, block.mimeType])).toEqual([['text', undefined], ['image', 'image/png']]);
  });

  it("refuses arguments the upstream's inputSchema refuses before anything is sent", async () => {
    const result = await client.call('get_forecast', { city: 'Oslo', days: 9 });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/days/);
  });

  it("passes an upstream isError result on as a ToolError, never checked against the success schema, with the upstream's secret redacted", async () => {
    const result = await client.call('fail', {});
    expect(result.isError).toBe(true);
    expect(structured(result)).toMatchObject({ error: 'upstream_error' });
    expect(String(structured(result)['detail'])).toContain('No forecast today: the weather service is down (token [redacted])');
    expect(JSON.stringify(result)).not.toContain('sekret-value-4711');
  });

  it("writes the upstream's log messages to the app's log, tagged and redacted, and never into the caller's answer", async () => {
    logged.length = 0;
    const result = await client.call('fail', {});
    // The notification comes before the answer on the same pipe, so it is logged by the time the answer is back.
    const line = logged.find((entry) => entry.message === 'upstream MCP server logged');
    expect(line).toEqual({
      level: 'error',
      message: 'upstream MCP server logged',
      fields: { upstream: 'weather', level: 'error', logger: 'weather-service', data: '{"message":"weather service down","token":"[redacted]"}' },
    });
    expect(JSON.stringify(logged)).not.toContain('sekret-value-4711');
    expect(JSON.stringify(result)).not.toContain('weather service down');
  });

  it('refuses an answer that breaks the upstream\'s own output schema (strict, the default), naming the paths', async () => {
    const result = await client.call('broken_forecast', {});
    expect(result.isError).toBe(true);
    expect(text(result)).toContain("got an answer from its upstream MCP server that does not match the tool's own output schema");
    expect(text(result)).toContain('/data/city');
    expect(JSON.stringify(result)).not.toContain('warm');
  });

  it('refuses at startup two upstreams serving a tool of the same name, naming both and the config that renames them', () => {
    const load = (name: string, config: McpConfig) => {
      const generated = generateMcpToolset(name, snapshot, config);
      return (loadGeneratedSources(generated.files) as Record<string, ClassType>)[generated.className]!;
    };
    // Libraries of other names than this suite's served one: each library registers its upstream under its name.
    const first = load('alpha', { name: 'alpha', source: stdioSource });
    const second = load('forecasts', { name: 'forecasts', source: stdioSource });
    expect(() => buildServer({ name: 'app', version: '1', toolsets: [first, second], logger })).toThrow(
      `The tool name 'get_forecast' is used by AlphaToolset.getForecast() (toolset 'alpha') and by ForecastsToolset.getForecast() (toolset 'forecasts'); names must be unique in one server. Fix: rename one of them: the generated toolset 'forecasts' takes a "prefix" for all its tools, or a "name" for this one under "tools", in its mcp.config.json, then run npx nx sync.`,
    );
    const prefixed = load('forecasts', { name: 'forecasts', source: stdioSource, prefix: 'fc' });
    expect(() => buildServer({ name: 'app', version: '1', toolsets: [first, prefixed], logger })).not.toThrow();
  });

  it("gives the stdio child its declared variable from the app's environment, and never lets the child echo it to the caller", async () => {
    const result = await client.call('whoami', {});
    expect(structured(result)['data']).toEqual({ secret_env: '[redacted]' });
    expect(JSON.stringify(result)).not.toContain('sekret-value-4711');
  });

  it('answers a ToolError when the child dies mid-call, logs its stderr redacted, and starts a new child for the next call', async () => {
    const crashed = await client.call('crash', {});
    expect(crashed.isError).toBe(true);
    expect(structured(crashed)).toMatchObject({ error: 'upstream_unavailable' });
    const lost = logged.find((line) => line.message === 'upstream MCP server connection lost');
    expect(lost).toBeDefined();
    expect(JSON.stringify(lost)).not.toContain('sekret-value-4711');
    const again = await client.call('get_forecast', { city: 'Bergen' });
    expect(again.isError).toBeFalsy();
    expect(structured(again)['data']).toMatchObject({ city: 'Bergen' });
  });
});

describe('a generated toolset whose upstream moved on after generation (the pinned contract)', () => {
  let snapshot: UpstreamSnapshot;
  beforeAll(async () => {
    snapshot = await readUpstream({ source: stdioSource });
  });
  afterAll(async () => {
    await closeUpstreams();
    delete process.env['WEATHER_MCP_COMMAND'];
  });

  it('refuses a tool the upstream changed, serves the unchanged ones, and logs each drift with its kind', async () => {
    process.env['WEATHER_MCP_COMMAND'] = `${process.execPath} ${FIXTURE} stdio changed`;
    const client = await connectToolset(serve('weather', snapshot, { name: 'weather', source: stdioSource }));
    logged.length = 0;
    const changed = await client.call('get_forecast', { city: 'Oslo' });
    const same = await client.call('echo', { message: 'still here' });
    await client.close();
    delete process.env['WEATHER_MCP_COMMAND'];
    expect(structured(changed)).toMatchObject({ error: 'upstream_changed' });
    expect(String(structured(changed)['detail'])).toContain('changed what it takes or returns for get_forecast');
    expect(structured(same)).toEqual({ message: 'You said: still here' });
    expect(logged).toContainEqual(expect.objectContaining({ level: 'warn', message: 'upstream MCP server drifted from the pinned contract', fields: expect.objectContaining({ upstream: 'weather', kind: 'changed', tool: 'get_forecast' }) }));
    expect(logged).toContainEqual(expect.objectContaining({ fields: expect.objectContaining({ kind: 'added', tools: ['get_alerts'] }) }));
    // A tool the upstream added is not served until the library is regenerated.
    expect((await (await connectToolset(serve('weather', snapshot, { name: 'weather', source: stdioSource }))).listTools()).map((tool) => tool.name)).not.toContain('get_alerts');
  });

  it("follows the upstream's notifications/tools/list_changed: a tool that changes mid-run is refused from then on", async () => {
    const client = await connectToolset(serve('weather', snapshot, { name: 'weather', source: stdioSource }));
    expect((await client.call('get_forecast', { city: 'Oslo' })).isError).toBeFalsy();
    expect(structured(await client.call('upgrade', {}))).toEqual({ message: 'Upgraded to 1.1.0.' });
    const after = await forecastOnceRefused(client);
    await client.close();
    expect(structured(after)).toMatchObject({ error: 'upstream_changed' });
  });
});

describe('curating what an upstream answers: fields kept, validation off', () => {
  let snapshot: UpstreamSnapshot;
  beforeAll(async () => {
    snapshot = await readUpstream({ source: stdioSource });
  });
  afterAll(() => closeUpstreams());

  it('keeps only the fields a tool\'s entry names, in what it advertises and in what it sends', async () => {
    const client = await connectToolset(serve('weather', snapshot, { name: 'weather', source: stdioSource, tools: { get_forecast: { fields: ['city', 'wind.speed'] } } }));
    const tool = (await client.listTools()).find((candidate) => candidate.name === 'get_forecast')!;
    const result = await client.call('get_forecast', { city: 'Oslo' });
    await client.close();
    const [answer] = (tool.outputSchema as { anyOf: { properties: { data: { properties: Record<string, { properties?: object }> } } }[] }).anyOf;
    expect(Object.keys(answer!.properties.data.properties)).toEqual(['city', 'wind']);
    expect(Object.keys(answer!.properties.data.properties['wind']!.properties!)).toEqual(['speed']);
    expect(structured(result)['data']).toEqual({ city: 'Oslo', wind: { speed: 12 } });
  });

  it('passes a tool\'s answers on unchecked where validation is off, and stops at a field the answer does not have', async () => {
    const client = await connectToolset(serve('weather', snapshot, { name: 'weather', source: stdioSource, tools: { broken_forecast: { validation: 'off' } } }));
    const result = await client.call('broken_forecast', {});
    await client.close();
    expect(result.isError).toBeFalsy();
    expect(structured(result)['data']).toEqual({ city: 42, temperature: 'warm', conditions: 'snow' });
    expect(() => generateMcpToolset('weather', snapshot, { name: 'weather', source: stdioSource, tools: { get_forecast: { fields: ['town'] } } })).toThrow(
      'mcp.config.json "tools"."get_forecast"."fields": "town" is not a field of the answer (renamed or removed upstream?). Its fields: city, temperature, conditions, wind.',
    );
    expect(() => generateMcpToolset('weather', snapshot, { name: 'weather', source: stdioSource, validation: 'loose' as never })).toThrow('mcp.config.json."validation": "loose" is not one of "strict", "lenient", "off".');
  });

  it('writes "oneCallAtATime" into a stdio library\'s settings, and refuses it for an HTTP upstream or as anything but true or false', () => {
    const source = generateMcpToolset('weather', snapshot, { name: 'weather', source: stdioSource, oneCallAtATime: true }).files['src/generated/weather.toolset.ts']!;
    expect(source).toMatch(/oneCallAtATime: true/);
    expect(generateMcpToolset('weather', snapshot, { name: 'weather', source: stdioSource }).files['src/generated/weather.toolset.ts']).not.toContain('oneCallAtATime');
    expect(() => generateMcpToolset('weather', snapshot, { name: 'weather', source: { url: 'https://mcp.example.com/mcp' }, oneCallAtATime: true })).toThrow(
      'mcp.config.json "oneCallAtATime": the upstream is reached over HTTP, where a question comes on the response stream of the call it belongs to and reaches its caller already. Remove it.',
    );
    expect(() => generateMcpToolset('weather', snapshot, { name: 'weather', source: stdioSource, oneCallAtATime: 'yes' as never })).toThrow('mcp.config.json "oneCallAtATime": must be true or false.');
  });

  it('lists the upstream\'s tools again every <NAME>_MCP_POLL_MS for an upstream that sends no notice, and refuses a tool that changed', async () => {
    process.env['WEATHER_MCP_POLL_MS'] = '50';
    const client = await connectToolset(serve('weather', snapshot, { name: 'weather', source: stdioSource }));
    expect((await client.call('get_forecast', { city: 'Oslo' })).isError).toBeFalsy();
    expect(structured(await client.call('upgrade', { quiet: true }))).toEqual({ message: 'Upgraded to 1.1.0.' });
    const after = await forecastOnceRefused(client);
    await client.close();
    delete process.env['WEATHER_MCP_POLL_MS'];
    expect(structured(after)).toMatchObject({ error: 'upstream_changed' });
  });

  it("lists the upstream's tools again when the list it gave expires (its ttlMs) where it sends no notice, and refuses a tool that changed", async () => {
    process.env['WEATHER_MCP_COMMAND'] = `${process.execPath} ${FIXTURE} stdio --ttl-ms=0`;
    try {
      const client = await connectToolset(serve('weather', snapshot, { name: 'weather', source: stdioSource }));
      expect((await client.call('get_forecast', { city: 'Oslo' })).isError).toBeFalsy();
      expect(structured(await client.call('upgrade', { quiet: true }))).toEqual({ message: 'Upgraded to 1.1.0.' });
      // ttlMs 0 ("stale at once") lists again after a second, not in a loop.
      const after = await forecastOnceRefused(client);
      await client.close();
      expect(structured(after)).toMatchObject({ error: 'upstream_changed' });
    } finally {
      delete process.env['WEATHER_MCP_COMMAND'];
    }
  });
});

describe('a generated toolset over a streamable HTTP upstream', () => {
  let upstream: ChildProcess;
  let url: string;
  let stderr = '';
  let snapshot: UpstreamSnapshot;

  /** The fixture upstream over streamable HTTP, in a process of its own, once it listens. */
  const startHttpUpstream = async (): Promise<{ child: ChildProcess; url: string }> => {
    const child = spawn(process.execPath, [FIXTURE, 'http'], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk));
    const port = await new Promise<number>((resolve, reject) => {
      child.stdout!.on('data', (chunk: Buffer) => {
        const match = /listening (\d+)/.exec(String(chunk));
        if (match) resolve(Number(match[1]));
      });
      child.on('exit', (code) => reject(new Error(`the fixture exited with ${code}: ${stderr}`)));
    });
    return { child, url: `http://127.0.0.1:${port}/mcp` };
  };

  beforeAll(async () => {
    ({ child: upstream, url } = await startHttpUpstream());
    process.env['WEATHER_TOKEN'] = 'Bearer upstream-token-0815';
    snapshot = await readUpstream({ source: { url }, headers: { authorization: process.env['WEATHER_TOKEN'] } });
  });
  afterAll(async () => {
    await closeUpstreams();
    upstream?.kill();
    delete process.env['WEATHER_TOKEN'];
    delete process.env['WEATHER_TIMEOUT_MS'];
    delete process.env['WEATHER_MAX_RESULT_BYTES'];
  });

  it("sends the upstream its own credential from the app's environment, never the caller's Authorization", async () => {
    const server = serve('weather', snapshot, { name: 'weather', source: { url }, secrets: { authorization: 'WEATHER_TOKEN' } });
    const client = await connectToolset(server, { headers: { authorization: 'Bearer the-callers-own-token' } });
    const result = await client.call('whoami', {});
    await client.close();
    // The upstream got the app's own credential (its digest), and echoing it back does not bring it to the caller.
    expect(structured(result)['data']).toEqual({ authorization: '[redacted]', authorization_digest: createHash('sha256').update('Bearer upstream-token-0815').digest('hex').slice(0, 12) });
  });

  it("passes each caller's own declared credential upstream, on a connection of its own, never the caller's Authorization", async () => {
    const server = serve('weather', snapshot, { name: 'weather', source: { url }, credentials: { 'x-weather-key': { header: 'authorization', bearer: true } } });
    const ask = async (headers: Record<string, string>) => {
      const client = await connectToolset(server, { headers });
      const result = await client.call('whoami', {});
      await client.close();
      return result;
    };
    // The upstream echoes what it got (its digest tells the two apart); the credential itself never comes back.
    const digest = (value: string) => createHash('sha256').update(value).digest('hex').slice(0, 12);
    expect(structured(await ask({ 'x-weather-key': 'alice-key', authorization: 'Bearer mcp-token' }))['data']).toEqual({ authorization: '[redacted]', authorization_digest: digest('Bearer alice-key') });
    expect(structured(await ask({ 'x-weather-key': 'bob-key' }))['data']).toEqual({ authorization: '[redacted]', authorization_digest: digest('Bearer bob-key') });
    const without = await ask({ authorization: 'Bearer mcp-token' });
    expect(without.isError).toBe(true);
    expect(text(without)).toContain('x-weather-key');
  });

  it("refuses caller credentials a stdio upstream cannot take, and the MCP Authorization header as one", () => {
    expect(() => generateMcpToolset('weather', snapshot, { name: 'weather', source: stdioSource, credentials: { 'x-weather-key': { header: 'authorization' } } })).toThrow(
      'mcp.config.json "credentials": callers\' credentials are passed to an HTTP upstream',
    );
    expect(() => generateMcpToolset('weather', snapshot, { name: 'weather', source: { url }, credentials: { authorization: { header: 'authorization' } } })).toThrow(
      'mcp.config.json "credentials"."authorization": MCP\'s own authorization (the client\'s OAuth token for this server) uses that header, and it is never passed upstream',
    );
  });

  it('refuses to start without the variable the upstream credential comes from, naming it', () => {
    const server = serve('weather', snapshot, { name: 'weather', source: { url }, secrets: { authorization: 'WEATHER_TOKEN' } });
    const [toolset] = server.catalog.toolsets;
    expect(() => toolset!.checkSettings!({})).toThrow('WEATHER_TOKEN is not set: the upstream MCP server of weather takes its authorization from it.');
    expect(() => toolset!.checkSettings!({ WEATHER_TOKEN: 'x', WEATHER_MCP_URL: 'ftp://elsewhere' })).toThrow('WEATHER_MCP_URL must be an http or https URL');
  });

  it("passes the upstream's progress on and forwards the caller's cancellation upstream", async () => {
    const server = serve('weather', snapshot, { name: 'weather', source: { url }, secrets: { authorization: 'WEATHER_TOKEN' } });
    const client = await connectToolset(server);
    const progress: unknown[] = [];
    const controller = new AbortController();
    const call = client.client.callTool({ name: 'slow', arguments: { ms: 60_000 } }, { signal: controller.signal, onprogress: (update) => void progress.push(update) });
    await waitFor(() => progress.length > 0, () => `no progress; fixture stderr: ${stderr}; log: ${JSON.stringify(logged)}`);
    controller.abort();
    await expect(call).rejects.toThrow();
    await waitFor(() => /cancelled/.test(stderr), () => `the upstream saw no cancellation; its stderr: ${stderr}`);
    await client.close();
    expect(progress[0]).toMatchObject({ progress: 1, total: 2, message: 'halfway' });
  });

  it('answers a ToolError when the upstream does not answer in time', async () => {
    process.env['WEATHER_TIMEOUT_MS'] = '300';
    const server = serve('weather', snapshot, { name: 'weather', source: { url }, secrets: { authorization: 'WEATHER_TOKEN' } });
    const client = await connectToolset(server);
    const result = await client.call('slow', { ms: 30_000 });
    await client.close();
    delete process.env['WEATHER_TIMEOUT_MS'];
    expect(structured(result)).toMatchObject({ error: 'upstream_timeout', detail: expect.stringContaining('did not answer slow within 0.3 s') });
  });

  it('answers a ToolError at once, not at its deadline, when the upstream dies with the answer stream open', async () => {
    // An upstream of its own, as this one dies; a deadline the test's own bound ends first.
    const dying = await startHttpUpstream();
    process.env['WEATHER_TIMEOUT_MS'] = String(10 * 60_000);
    try {
      const client = await connectToolset(serve('weather', snapshot, { name: 'weather', source: { url: dying.url }, secrets: { authorization: 'WEATHER_TOKEN' } }));
      const progress: unknown[] = [];
      const call = client.client.callTool({ name: 'slow', arguments: { ms: 10 * 60_000 } }, { timeout: 10 * 60_000, onprogress: (update) => void progress.push(update) });
      // Its progress came on the call's answer stream, so that stream is open when the upstream dies.
      await waitFor(() => progress.length > 0, () => `no progress; fixture stderr: ${stderr}`);
      dying.child.kill('SIGKILL');
      const result = await call;
      await client.close();
      expect(result.structuredContent).toMatchObject({ error: 'upstream_unavailable', detail: 'The upstream MCP server of weather ended its answer to slow without answering (it may have stopped or restarted mid-call). Try again.' });
    } finally {
      delete process.env['WEATHER_TIMEOUT_MS'];
      dying.child.kill();
    }
  }, 60_000);

  it('refuses an answer over the size bound before validating it, naming the variable that raises it', async () => {
    process.env['WEATHER_MAX_RESULT_BYTES'] = '120';
    const server = serve('weather', snapshot, { name: 'weather', source: { url }, secrets: { authorization: 'WEATHER_TOKEN' } });
    const client = await connectToolset(server);
    const result = await client.call('get_forecast', { city: 'Oslo' });
    await client.close();
    delete process.env['WEATHER_MAX_RESULT_BYTES'];
    expect(structured(result)).toMatchObject({ error: 'upstream_too_large' });
    expect(String(structured(result)['detail'])).toContain('WEATHER_MAX_RESULT_BYTES');
  });

  it('answers a ToolError when the upstream cannot be reached', async () => {
    const server = serve('weather', snapshot, { name: 'weather', source: { url: 'http://127.0.0.1:9/mcp' }, secrets: { authorization: 'WEATHER_TOKEN' } });
    const client = await connectToolset(server);
    const result = await client.call('get_forecast', { city: 'Oslo' });
    await client.close();
    expect(structured(result)).toMatchObject({ error: 'upstream_unavailable' });
    expect(JSON.stringify(result)).not.toContain('upstream-token-0815');
  });

  it('passes an answer that breaks its own schema on as unchecked, with a note, when the tool is lenient', async () => {
    const server = serve('weather', snapshot, { name: 'weather', source: { url }, secrets: { authorization: 'WEATHER_TOKEN' }, tools: { broken_forecast: { lenient: true } } });
    const client = await connectToolset(server);
    const result = await client.call('broken_forecast', {});
    await client.close();
    expect(result.isError).toBeFalsy();
    expect(structured(result)['unchecked']).toEqual({ city: 42, temperature: 'warm', conditions: 'snow' });
    expect(String(structured(result)['note'])).toMatch(/city/);
  });
});

/** Waits for `condition`, failing with `why()` after a bound far above any healthy wait. */
/**
 * get_forecast, called until the app refuses it (it saw the upstream change), or once more after
 * 30 s: a bound on a check that never comes, not a measure of how soon it comes.
 */
async function forecastOnceRefused(client: ToolsetClient): Promise<Awaited<ReturnType<ToolsetClient['call']>>> {
  let after = await client.call('get_forecast', { city: 'Oslo' });
  for (const giveUp = Date.now() + 30_000; !after.isError && Date.now() < giveUp; ) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    after = await client.call('get_forecast', { city: 'Oslo' });
  }
  return after;
}

async function waitFor(condition: () => boolean, why: () => string): Promise<void> {
  const giveUp = Date.now() + 30_000;
  while (!condition()) {
    if (Date.now() > giveUp) throw new Error(why());
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
