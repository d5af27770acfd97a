import { resolve } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyHttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { waitUntil } from '@toolsets/testing';
import { startServerProcess, type ServerProcess } from './support/server-process';

const slowServer = resolve(__dirname, '../fixtures/slow-server.cjs');

describe("over HTTP, the tool's AbortSignal", () => {
  let server: ServerProcess;

  // A server per test: each counts only its own calls' log lines.
  beforeEach(async () => {
    server = await startServerProcess(slowServer);
  });
  afterEach(() => server.stop());

  const abortLines = () => server.stderr().split('\n').filter((line) => line.startsWith('wait_for_cancel aborted'));

  it('aborts when a 2026-07-28 client cancels the call', async () => {
    const client = new Client({ name: 'cancel', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.origin}/mcp`)));
    const controller = new AbortController();
    const call = client.callTool({ name: 'wait_for_cancel', arguments: {} }, { signal: controller.signal });
    await server.stderrLines('wait_for_cancel started');
    controller.abort('user pressed stop');
    await expect(call).rejects.toThrow('user pressed stop');
    await waitForAbortLine();
    expect(abortLines()).toHaveLength(1);
    await client.close();
  });

  // A 2025-era cancellation is a notification on a separate POST, which a stateless server cannot
  // route to the call in flight; the disconnect that follows is what reaches the tool.
  it('aborts when a 2025-era client goes away mid-call', async () => {
    const client = new LegacyClient({ name: 'cancel-2025', version: '1' });
    await client.connect(new LegacyHttpTransport(new URL(`${server.origin}/mcp`)));
    const call = client.callTool({ name: 'wait_for_cancel', arguments: {} });
    await server.stderrLines('wait_for_cancel started');
    void client.close();
    await expect(call).rejects.toThrow('Connection closed');
    await waitForAbortLine();
    expect(abortLines()).toHaveLength(1);
  });

  /** The tool logs `wait_for_cancel aborted after N ms` when its signal fires; fail loudly if it does not. */
  async function waitForAbortLine(deadlineMs = 5_000): Promise<void> {
    await waitUntil(() => abortLines().length > 0, { deadlineMs, failure: () => `the tool's signal did not abort within ${deadlineMs} ms:\n${server.stderr().slice(-1000)}` });
  }
});
