import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { waitUntil } from '@toolsets/testing';
import { httpClient } from './support/clients';
import { appMain, startServerProcess, workspaceRoot } from './support/server-process';

const slowServer = resolve(__dirname, '../fixtures/slow-server.cjs');

describe('process lifecycle', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('on %s lets the in-flight call finish, then exits 0', async (signal) => {
    const server = await startServerProcess(slowServer, { SLOW_MS: '1500' });
    const client = await httpClient('modern', `${server.origin}/mcp`);
    const call = client.callTool({ name: 'slow', arguments: {} });
    await server.stderrLines('slow started');
    server.child.kill(signal);
    expect((await call)['structuredContent']).toEqual({ message: 'finished' });
    expect(await server.exited).toBe(0);
    expect(server.stderr()).toContain('draining in-flight calls before exit');
  });

  it('drains and exits 0 on a SIGTERM that comes while the banner is still being written, instead of dying with its connections', async () => {
    // Node's default action for a signal nobody handles kills the process at once: the handlers must be in place before the port opens.
    const child = spawn(process.execPath, [slowServer], { env: { ...process.env, PORT: '0', SIGTERM_AT_BANNER: '1' }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((done) => child.once('close', (exitCode, exitSignal) => done([exitCode, exitSignal])));
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(stderr).toContain('draining in-flight calls before exit');
  });

  it('over stdio, exits 0 when its client closes stdin, ending the stdio upstream it had started (it kept the app running until a SIGTERM)', async () => {
    // The demo app's everything server: the generated toolset of an upstream MCP server over stdio, a child process of the app.
    const app = spawn(process.execPath, [appMain('demo-server'), '--stdio', '--server=everything'], { cwd: workspaceRoot, env: { PATH: process.env['PATH'] ?? '' } });
    let stdout = '';
    let stderr = '';
    app.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    app.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    const ended = () => app.exitCode !== null || app.signalCode !== null;
    const send = (message: object) => app.stdin.write(`${JSON.stringify(message)}\n`);
    try {
      send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get-sum', arguments: { a: 2, b: 40 } } });
      await waitUntil(() => stdout.includes('"id":2'), { deadlineMs: 60_000, givenUp: () => app.exitCode !== null, failure: () => `no answer to the call; stderr:\n${stderr.slice(-1000)}` });
      expect(JSON.parse(stdout.trim().split('\n').pop()!)).toMatchObject({ id: 2, result: { structuredContent: { message: expect.stringContaining('42') } } });
      const upstreams = childrenOf(app.pid!);
      expect(upstreams).toHaveLength(1);

      app.stdin.end();
      // A bound on an app that never exits (it then fails here, instead of holding the test run open), not a measure of one that does.
      await waitUntil(ended, { deadlineMs: 30_000, failure: () => `the app was still running 30 s after its client closed stdin; stderr:\n${stderr.slice(-1000)}` });
      expect([app.exitCode, app.signalCode]).toEqual([0, null]);
      expect(stderr).toContain('"message":"draining in-flight calls before exit","reason":"the client closed stdin"');
      // The upstream's child process ended with the app (a zombie until its new parent reaps it is ended too).
      await waitUntil(() => !alive(upstreams[0]!), { deadlineMs: 30_000, failure: () => `the upstream's process ${upstreams[0]} outlived the app` });
    } finally {
      if (!ended()) app.kill('SIGKILL');
    }
  });

  it('refuses to start, exit 1, listing every contract violation with its fix', async () => {
    const start = startServerProcess(resolve(__dirname, '../fixtures/broken-server.cjs'));
    await expect(start).rejects.toThrow('exited with 1');
    await expect(start).rejects.toThrow("Server 'broken' refused to start: 2 contract violations.");
    await expect(start).rejects.toThrow("[toolset 'broken' > tool 'act'] The tool has no description");
    await expect(start).rejects.toThrow("The result class 'LooseResult' does not extend ToolResult.");
  });

  it('refuses a port already in use, saying to pick another', async () => {
    const first = await startServerProcess(slowServer);
    await expect(startServerProcess(slowServer, { PORT: new URL(first.origin).port })).rejects.toThrow(
      'Another process is using that port: set PORT to a free one',
    );
    expect(await first.stop()).toBe(0);
  });

  it('refuses a bad PORT with a message that says what is allowed', async () => {
    await expect(startServerProcess(slowServer, { PORT: 'not-a-port' })).rejects.toThrow('PORT must be an integer from 0 to 65535');
  });
});

/** The pids of a process's children (Linux: /proc/<pid>/task/<tid>/children). */
function childrenOf(pid: number): number[] {
  return readdirSync(`/proc/${pid}/task`).flatMap((tid) => readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf-8').trim().split(/\s+/).filter(Boolean).map(Number));
}

/** Whether a process still runs (a zombie has ended). */
function alive(pid: number): boolean {
  if (!existsSync(`/proc/${pid}/stat`)) return false;
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf-8').split(') ')[1]![0] !== 'Z';
  } catch {
    return false;
  }
}
