import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { httpClient } from './support/clients';
import { startServerProcess } from './support/server-process';

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
