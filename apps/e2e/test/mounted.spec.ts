import { httpClient, stdioClient } from './support/clients';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { appMain, startServerProcess, workspaceRoot, type ServerProcess } from './support/server-process';

/** The tools of the reference server-everything the demo serves, as generated (libs/toolsets/everything). */
const EVERYTHING_TOOLS = ['echo', 'get-annotated-message', 'get-env', 'get-resource-links', 'get-resource-reference', 'get-structured-content', 'get-sum', 'get-tiny-image', 'gzip-file-as-resource', 'toggle-simulated-logging', 'toggle-subscriber-updates', 'trigger-long-running-operation', 'simulate-research-query'];

describe('the demo app, both toolsets mounted in one process', () => {
  let server: ServerProcess;

  beforeAll(async () => {
    server = await startServerProcess(appMain('demo-server'));
  });
  afterAll(() => server.stop());

  it('lists its servers with their URLs and credential headers at /', async () => {
    const size = { bytes: expect.any(Number), estimatedTokens: expect.any(Number) };
    expect(await (await fetch(`${server.origin}/`)).json()).toMatchObject({
      servers: [
        { name: 'hello', url: `${server.origin}/hello/mcp`, tools: ['hello', 'greet_team', 'hello_card'], credentialHeaders: [] },
        { name: 'credential-demo', url: `${server.origin}/credential-demo/mcp`, tools: ['whoami'], credentialHeaders: ['x-demo-token'] },
        {
          name: 'demo',
          url: `${server.origin}/demo/mcp`,
          tools: ['hello', 'greet_team', 'hello_card', 'whoami'],
          credentialHeaders: ['x-demo-token'],
          toolsets: [
            { name: 'hello', tools: 3, ...size },
            { name: 'credential-demo', tools: 1, ...size },
          ],
          list: size,
          discoveryList: size,
          // The demo server serves code mode too (?mode=code): its three tools' list.
          codeList: size,
        },
        // Without AUTH_ISSUER the notes mount checks no token: every caller is the one local owner.
        { name: 'notes', url: `${server.origin}/notes/mcp`, tools: ['list_notes', 'get_note', 'add_note', 'delete_note'], credentialHeaders: [] },
        { name: 'reports', url: `${server.origin}/reports/mcp`, tools: ['render_report', 'tally'], credentialHeaders: ['x-reports-key'] },
        { name: 'everything', url: `${server.origin}/everything/mcp`, tools: [...EVERYTHING_TOOLS, 'hello', 'greet_team', 'hello_card'], credentialHeaders: [] },
      ],
    });
  });

  it('says at /health which tools it serves, each once, though the demo mount serves the others again', async () => {
    expect(await (await fetch(`${server.origin}/health`)).json()).toEqual({
      status: 'ok',
      tools: ['hello', 'greet_team', 'hello_card', 'whoami', 'list_notes', 'get_note', 'add_note', 'delete_note', 'render_report', 'tally', ...EVERYTHING_TOOLS],
      credentialHeaders: ['x-demo-token', 'x-reports-key'],
    });
  });

  it('answers a one-line call from the shell (toolsets-call), with its exit status saying whether the tool failed (1) or the command line was wrong (2)', () => {
    const callWith = (env: Record<string, string>, ...args: string[]) => spawnSync(process.execPath, [join(workspaceRoot, 'libs/testing/dist/bin/toolsets-call.js'), ...args], { encoding: 'utf-8', env: { ...process.env, ...env } });
    const call = (...args: string[]) => callWith({}, ...args);
    // A credential from the environment, never on the command line (ps, shell history).
    const fromEnvironment = callWith({ TOOLSETS_CALL_HEADERS: 'x-demo-token: abc' }, `${server.origin}/credential-demo/mcp`, 'whoami');
    expect([fromEnvironment.status, JSON.parse(fromEnvironment.stdout).account]).toEqual([0, expect.stringMatching(/^user-/)]);
    const malformed = callWith({ TOOLSETS_CALL_HEADERS: 'secret-without-a-name' }, `${server.origin}/credential-demo/mcp`, 'whoami');
    expect([malformed.status, malformed.stderr]).toEqual([2, expect.stringContaining('TOOLSETS_CALL_HEADERS holds a line that is not a header')]);
    expect(malformed.stderr).not.toContain('secret-without-a-name');
    const hello = call(`${server.origin}/hello/mcp`, 'hello', '{"name":"Ada"}');
    expect([hello.status, JSON.parse(hello.stdout)]).toEqual([0, { message: 'Hello, Ada!' }]);
    const anonymous = call(`${server.origin}/credential-demo/mcp`, 'whoami');
    expect(anonymous.status).toBe(1);
    expect(anonymous.stdout).toContain('needs the caller\'s credential in the `x-demo-token` HTTP header');
    const known = call(`${server.origin}/credential-demo/mcp`, 'whoami', '-H', 'x-demo-token: abc');
    expect(known.status).toBe(0);
    expect(JSON.parse(known.stdout)).toMatchObject({ account: expect.stringMatching(/^user-/) });
    const bad = call(`${server.origin}/hello/mcp`, 'hello', '{name:Ada}');
    expect([bad.status, bad.stderr.trim()]).toEqual([2, 'The arguments must be a JSON object, such as \'{"name":"Ada"}\' (got "{name:Ada}").']);
  });

  it('prints a client configuration that a client can use as printed', async () => {
    const printed = server.stdout();
    expect(printed).toContain(`${server.origin}/hello/mcp`);
    const config = JSON.parse(printed.slice(printed.indexOf('{'))) as Record<string, { url?: string; headers?: Record<string, string>; args?: string[]; env?: Record<string, string> }>;
    expect(Object.keys(config)).toEqual(['hello', 'credential-demo', 'demo', 'notes', 'reports', 'everything', 'hello-stdio', 'credential-demo-stdio', 'demo-stdio', 'notes-stdio', 'reports-stdio', 'everything-stdio']);
    expect([config['reports-stdio'].args, config['reports-stdio'].env]).toEqual([[appMain('demo-server'), '--stdio', '--server=reports'], { X_REPORTS_KEY: '<your x-reports-key value>' }]);
    expect(config['notes-stdio'].args).toEqual([appMain('notes-server'), '--stdio']);
    expect(config['demo-stdio'].args).toEqual([appMain('demo-server'), '--stdio', '--server=demo']);
    expect(config['credential-demo-stdio'].env).toEqual({ X_DEMO_TOKEN: '<your x-demo-token value>' });
    expect(config['hello-stdio'].args?.[0]).toBe(appMain('hello-server'));
    for (const [name, entry] of Object.entries(config)) if (name.endsWith('-stdio')) expect([name, existsSync(entry.args![0])]).toEqual([name, true]);

    const hello = await httpClient('modern', config['hello'].url!, config['hello'].headers);
    expect((await hello.callTool({ name: 'hello', arguments: {} }))['structuredContent']).toEqual({ message: 'Hello, world!' });
    await hello.close();

    const headers = { ...config['credential-demo'].headers, 'x-demo-token': 'pasted-token' };
    const whoami = await httpClient('legacy', config['credential-demo'].url!, headers);
    expect((await whoami.callTool({ name: 'whoami', arguments: {} }))['structuredContent']).toMatchObject({ account: expect.stringMatching(/^user-[0-9a-f]{8}$/) });
    await whoami.close();

    // The reports entry, as pasted, with the key in its environment variable.
    const reports = await stdioClient('modern', config['reports-stdio'].args!, { X_REPORTS_KEY: 'pasted-key' });
    expect((await reports.callTool({ name: 'tally', arguments: { items: 3 } }))['structuredContent']).toMatchObject({ total: 6 });
    await reports.close();
  });

  it('prints stdio entries only for apps that are built, and says which it left out', async () => {
    // The demo app's build alone, where the apps its stdio entries run were never built.
    mkdirSync(join(workspaceRoot, 'tmp'), { recursive: true });
    const folder = mkdtempSync(join(workspaceRoot, 'tmp/unbuilt-'));
    cpSync(join(workspaceRoot, 'apps/demo-server/dist'), join(folder, 'apps/demo-server/dist'), { recursive: true });
    const alone = await startServerProcess(join(folder, 'apps/demo-server/dist/main.js'));
    try {
      // The banner follows the line startServerProcess waits for.
      for (let waited = 0; !alone.stdout().includes('notes-stdio left out') && waited < 5_000; waited += 50) await new Promise((done) => setTimeout(done, 50));
      const printed = alone.stdout();
      // The demo server serves code mode: the banner names ?mode=code beside ?mode=discovery.
      expect(printed).toContain('  select per request: ?toolsets=<group>,<group>  ?readonly=1  ?mode=discovery  ?mode=code (or X-MCP-Toolsets, X-MCP-Readonly, X-MCP-Mode)');
      const config = JSON.parse(printed.slice(printed.indexOf('{'), printed.lastIndexOf('}\n') + 1)) as Record<string, { args?: string[] }>;
      expect(Object.keys(config)).toEqual(['hello', 'credential-demo', 'demo', 'notes', 'reports', 'everything', 'demo-stdio', 'reports-stdio', 'everything-stdio']);
      for (const name of ['hello', 'credential-demo', 'notes']) {
        expect(printed).toContain(`(${name}-stdio left out: ${join(folder, `apps/${name}-server/dist/main.js`)} is not built yet)`);
      }
    } finally {
      await alone.stop();
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it.each(['modern', 'legacy'] as const)('serves the reference server-everything, generated into a typed toolset, beside hello to a %s client', async (era) => {
    const client = await httpClient(era, `${server.origin}/everything/mcp`);
    try {
      const tools = (await client.listTools()).tools as { name: string; outputSchema?: { anyOf?: { properties?: Record<string, unknown> }[] } }[];
      expect(tools.map((tool) => tool.name)).toEqual([...EVERYTHING_TOOLS, 'hello', 'greet_team', 'hello_card']);
      // The one tool with an output schema upstream: its result is typed as `data`; the client checks it against the schema.
      expect(Object.keys(tools.find((tool) => tool.name === 'get-structured-content')!.outputSchema!.anyOf![0]!.properties!)).toEqual(['message', 'data']);
      const weather = (await client.callTool({ name: 'get-structured-content', arguments: { location: 'Chicago' } }))['structuredContent'] as { data: Record<string, unknown> };
      expect(weather.data).toMatchObject({ temperature: expect.any(Number), conditions: expect.any(String) });
      expect((await client.callTool({ name: 'get-sum', arguments: { a: 2, b: 40 } }))['structuredContent']).toEqual({ message: 'The sum of 2 and 40 is 42.' });
      expect((await client.callTool({ name: 'hello', arguments: { name: 'Ada' } }))['structuredContent']).toEqual({ message: 'Hello, Ada!' });
    } finally {
      await client.close();
    }
  });

  it('keeps each mount to its own tools', async () => {
    const hello = await httpClient('modern', `${server.origin}/hello/mcp`);
    await expect(hello.callTool({ name: 'whoami', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    await hello.close();
    expect(await (await fetch(`${server.origin}/credential-demo/health`)).json()).toEqual({
      status: 'ok',
      tools: ['whoami'],
      credentialHeaders: ['x-demo-token'],
    });
  });
});
