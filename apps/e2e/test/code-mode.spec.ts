import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import 'reflect-metadata';
import { codeMode } from '@toolsets/code-mode';
import { buildServer, RequireScopes, serveHttp, Tool, ToolResult, Toolset, type Logger } from '@toolsets/core';
import { MODERN_REVISION, modernMeta, startTestIssuer } from '@toolsets/testing';
import { accountOf, httpClient, stdioClient, type AnyClient, type Era } from './support/clients';
import { MCP_HEADERS, toolsCall } from './support/raw-http';
import { appMain, startServerProcess, workspaceRoot, type ServerProcess } from './support/server-process';

const slowServer = resolve(__dirname, '../fixtures/slow-server.cjs');

type Answer = { isError?: boolean; structuredContent?: Record<string, unknown> };
const execute = async (client: AnyClient, program: string) => (await client.callTool({ name: 'execute', arguments: { program } })) as Answer;

/** Greets, then asks whose token this is, then tries to pass a forged token as an argument. */
const PROGRAM = `
const greeting = await api.hello.hello({ name: 'Ada' });
const me = await api.credential_demo.whoami();
let forged = 'accepted';
try {
  await api.credential_demo.whoami({ 'x-demo-token': 'forged' } as never);
} catch (error) {
  forged = error instanceof ToolCallError ? error.name : 'other';
}
return { greeting: greeting.message, account: me.account, forged };`;

describe('code mode in the demo app, on its combined mount', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServerProcess(appMain('demo-server'));
  });
  afterAll(async () => {
    await server.stop();
  });

  it.each(['modern', 'legacy'] as Era[])('over HTTP (%s era): a program calls both toolsets with the caller’s header credential, which it never sees', async (era) => {
    const token = `code-mode-${era}`;
    const client = await httpClient(era, `${server.origin}/demo/mcp?mode=code`, { 'x-demo-token': token });
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['search', 'describe', 'execute']);
      const done = await execute(client, PROGRAM);
      // The whole answer when the program did not end with its value (a limit's detail says which).
      expect(done.isError ? done : 'ran').toBe('ran');
      expect(done.structuredContent).toMatchObject({ value: { greeting: expect.stringContaining('Ada'), account: accountOf(token), forged: 'ToolCallError' }, calls: 3 });
      expect(JSON.stringify(done)).not.toContain(token);
    } finally {
      await client.close();
    }
  });

  it('over stdio (--code), with the credential from the environment', async () => {
    const client = await stdioClient('modern', [appMain('demo-server'), '--stdio', '--server=demo', '--code'], { X_DEMO_TOKEN: 'stdio-token' });
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['search', 'describe', 'execute']);
      const done = await execute(client, PROGRAM);
      expect(done.isError ? done : 'ran').toBe('ran');
      expect(done.structuredContent).toMatchObject({ value: { account: accountOf('stdio-token'), forged: 'ToolCallError' } });
    } finally {
      await client.close();
    }
  });
});

/** 209 bytes whose types take the compiler tens of seconds and gigabytes (2^16 tuples): a program's check is as hostile as its run. */
const EXPLODING_TYPES = `type F<T extends unknown[], Acc extends unknown[] = []> = T extends [unknown, ...infer R] ? F<R, [...Acc, 0]> | F<R, [...Acc, 1]> : Acc['length'];
const x: F<[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]> = 0;
return x;`;

describe('code mode type-checks off the server thread', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    // A worker for each bomber: the three checks run together, for one window of CODE_MODE_CHECK_MS
    // (with the default two, the third waited for the first two and the checks burned half as much again).
    // Each check burns a core for the whole window: 4 s is enough for the server to answer many requests meanwhile.
    server = await startServerProcess(appMain('demo-server'), { CODE_MODE_CHECK_MS: '4000', CODE_MODE_WORKERS: '3' });
  });
  afterAll(async () => {
    await server.stop();
  });

  it('ends three exploding programs at once at a check limit, while probes, plain calls and search keep answering, and the next program runs', async () => {
    // Three callers (a program each: one caller may have only two running or waiting), and a fourth that probes;
    // its program after the bombs needs a worker they held.
    const bombers = await Promise.all([1, 2, 3].map((n) => httpClient('modern', `${server.origin}/demo/mcp?mode=code`, { 'x-demo-token': `bomber-${n}` })));
    const coder = await httpClient('modern', `${server.origin}/demo/mcp?mode=code`, { 'x-demo-token': 'prober' });
    const caller = await httpClient('legacy', `${server.origin}/hello/mcp`);
    try {
      let exploding = true;
      const programs = Promise.all(bombers.map((bomber) => execute(bomber, EXPLODING_TYPES))).finally(() => (exploding = false));
      // Answered one after another for as long as the checks run (at least 4 s): a server whose thread
      // type-checked would answer none of them until each check ended (one round at most, before the first began).
      const answeredMeanwhile = { ready: 0, calls: 0, searches: 0 };
      while (exploding) {
        if ((await fetch(`${server.origin}/ready`)).status === 200 && exploding) answeredMeanwhile.ready++;
        if ((await caller.callTool({ name: 'hello', arguments: { name: 'Ada' } })).structuredContent && exploding) answeredMeanwhile.calls++;
        if (((await coder.callTool({ name: 'search', arguments: { query: 'hello' } })) as Answer).structuredContent?.['tools'] && exploding) answeredMeanwhile.searches++;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      for (const answer of await programs) {
        expect(answer).toMatchObject({ isError: true, structuredContent: { error: 'limit', detail: expect.stringMatching(/type-check.*\((the checkMs limit; raise it with CODE_MODE_CHECK_MS|the checkMemoryBytes limit; raise it with CODE_MODE_CHECK_MEMORY_BYTES)\)/) } });
      }
      expect(answeredMeanwhile).toEqual({ ready: expect.any(Number), calls: expect.any(Number), searches: expect.any(Number) });
      expect(Math.min(answeredMeanwhile.ready, answeredMeanwhile.calls, answeredMeanwhile.searches)).toBeGreaterThanOrEqual(3);
      // The workers that were stopped are replaced: the next program is checked from a clean state and runs.
      expect((await execute(coder, "return (await api.hello.hello({ name: 'Ada' })).message;")).structuredContent).toMatchObject({ value: expect.stringContaining('Ada'), calls: 1 });
    } finally {
      await Promise.all([coder.close(), caller.close(), ...bombers.map((bomber) => bomber.close())]);
    }
  }, 120_000);
});

describe('code mode when the caller goes away', () => {
  it.each([
    ['2026-07-28', MODERN_REVISION],
    ['2025-era', '2025-06-18'],
  ])('stops a program whose client disconnects mid-run (%s): its next inner calls are never made', async (_era, version) => {
    // One worker: the next program runs only once the first has ended, however it ended.
    const server = await startServerProcess(slowServer, { CODE_MODE: '1', CODE_MODE_WORKERS: '1', SLOW_MS: '1500' });
    try {
      const leaving = new AbortController();
      const program = 'await api.slow.slow(); await api.slow.bump(); await api.slow.bump(); return "all done";';
      const sent = fetch(`${server.origin}/mcp?mode=code`, {
        method: 'POST',
        headers: { ...MCP_HEADERS, 'mcp-protocol-version': version, ...(version === MODERN_REVISION && { 'mcp-method': 'tools/call', 'mcp-name': 'execute' }) },
        body: version === MODERN_REVISION ? JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'execute', arguments: { program }, _meta: modernMeta({ tasks: false }) } }) : toolsCall('execute', { program }),
        signal: leaving.signal,
      })
        // A 2025-era answer is an event stream whose headers come at once: the abort then ends its body.
        .then((response) => response.text())
        .catch((error: Error) => error.name);
      // The process's first program starts a worker and the TypeScript checker before it calls anything:
      // beside busy cores that took 23 to 31 s here, and one clean-clone run passed 30 s. A bound on a hang, not a measure.
      await server.stderrLines('slow started', 1, 150_000);
      leaving.abort();
      expect(await sent).toBe('AbortError');
      const next = await httpClient('modern', `${server.origin}/mcp?mode=code`);
      expect((await execute(next, 'return "next";')).structuredContent).toMatchObject({ value: 'next' });
      await next.close();
      expect(server.stderr()).not.toContain('bump called');
    } finally {
      await server.stop();
    }
  }, 240_000);
});

describe('code mode at shutdown', () => {
  it('on SIGTERM lets a program whose inner call is in flight finish, then exits 0', async () => {
    const server = await startServerProcess(slowServer, { CODE_MODE: '1', SLOW_MS: '1500' });
    const client = await httpClient('modern', `${server.origin}/mcp?mode=code`);
    const running = execute(client, "const { message } = await api.slow.slow();\nreturn message + ' in time';");
    // The first program of the process: see above.
    await server.stderrLines('slow started', 1, 150_000);
    server.child.kill('SIGTERM');
    expect((await running).structuredContent).toMatchObject({ value: 'finished in time', calls: 1 });
    expect(await server.exited).toBe(0);
  }, 240_000);

  it('stops a program that would outlive the drain, and answers its caller before the connection closes', async () => {
    const server = await startServerProcess(slowServer, { CODE_MODE: '1', SLOW_MS: '120000', DRAIN_TIMEOUT_MS: '2000' });
    const client = await httpClient('modern', `${server.origin}/mcp?mode=code`);
    const running = execute(client, 'await api.slow.slow();\nreturn "never";');
    await server.stderrLines('slow started', 1, 150_000);
    const signalled = Date.now();
    server.child.kill('SIGTERM');
    const answer = await running;
    expect(answer).toMatchObject({ isError: true, structuredContent: { error: 'stopped', detail: expect.stringContaining('the server is shutting down') } });
    // Stopped at the drain, long before the 120 s call would have ended (a generous bound, not a measure of the drain).
    expect(Date.now() - signalled).toBeLessThan(100_000);
    expect(await server.exited).toBe(0);
  }, 240_000);
});

describe('toolsets-api-types', () => {
  it("writes a built app's api.d.ts, and says how to choose a server when the app has several", () => {
    const bin = resolve(workspaceRoot, 'libs/code-mode/dist/bin/toolsets-api-types.js');
    const dir = mkdtempSync(join(tmpdir(), 'toolsets-api-types-'));
    try {
      const out = join(dir, 'api.d.ts');
      execFileSync(process.execPath, [bin, 'apps/demo-server', '--server=demo', `--out=${out}`], { cwd: workspaceRoot, stdio: 'pipe' });
      const text = readFileSync(out, 'utf8');
      expect(text).toContain('export declare namespace api {');
      expect(text).toMatch(/namespace credential_demo \{[\s\S]*function whoami\(args\?: WhoamiArgs\): Promise<WhoamiResult>;/);
      expect(text).toContain('export type Api = typeof api;');
      let failure: { status?: number; stderr?: Buffer } = {};
      try {
        execFileSync(process.execPath, [bin, 'apps/demo-server'], { cwd: workspaceRoot, stdio: 'pipe' });
      } catch (error) {
        failure = error as typeof failure;
      }
      expect(failure.status).toBe(2);
      expect(String(failure.stderr)).toContain('apps/demo-server has 6 servers: choose one with --server= (hello, credential-demo, demo, notes, reports, everything)');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

class Done extends ToolResult {}

@Toolset({ name: 'vault', description: 'Things behind scopes.' })
@RequireScopes('vault:read')
class VaultToolset {
  @Tool({ description: 'Peek.', returns: Done, annotations: { readOnlyHint: true } })
  peek(): Done {
    return { message: 'peeked' };
  }

  @Tool({ description: 'Write.', returns: Done })
  @RequireScopes('vault:write')
  write(): Done {
    return { message: 'written' };
  }
}

describe('code mode behind OAuth', () => {
  it("gives a program only what the caller's token allows: a tool needing another scope is neither declared nor callable", async () => {
    const quiet: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };
    const issuer = await startTestIssuer();
    const definition = buildServer({ name: 'vault', version: '1', toolsets: [VaultToolset], logger: quiet, codeMode: codeMode() });
    const http = await serveHttp(definition, { port: 0, drainDelayMs: 0, drainTimeoutMs: 300, auth: { issuer: issuer.issuer }, logger: quiet });
    issuer.audience = http.mounts[0]!.url;
    try {
      const reader = await httpClient('modern', `${http.mounts[0]!.url}?mode=code`, { authorization: `Bearer ${await issuer.mint({ scopes: ['vault:read'] })}` });
      const described = (await reader.callTool({ name: 'describe', arguments: { names: ['vault'] } })) as Answer;
      expect(String(described.structuredContent?.['declarations'])).toContain('function peek(');
      expect(String(described.structuredContent?.['declarations'])).not.toContain('write');
      expect((await execute(reader, 'return (await api.vault.peek()).message;')).structuredContent).toMatchObject({ value: 'peeked', calls: 1 });
      expect((await execute(reader, 'await api.vault.write();')).structuredContent).toMatchObject({ error: 'type_error', problems: [{ message: expect.stringContaining("Property 'write' does not exist") }] });
      await reader.close();
      const writer = await httpClient('legacy', `${http.mounts[0]!.url}?mode=code`, { authorization: `Bearer ${await issuer.mint({ scopes: ['vault:read', 'vault:write'] })}` });
      expect((await execute(writer, 'return (await api.vault.write()).message;')).structuredContent).toMatchObject({ value: 'written' });
      await writer.close();
    } finally {
      await http.close();
      await definition.codeMode!.close();
      await issuer.close();
    }
  });
});
