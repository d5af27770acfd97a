import { resolve } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyHttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startServerProcess, type ServerProcess } from './support/server-process';

const slowServer = resolve(__dirname, '../fixtures/slow-server.cjs');

async function waitFor(predicate: () => boolean, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (!predicate() && Date.now() < until) await new Promise((done) => setTimeout(done, 20));
}

describe("over HTTP, the tool's AbortSignal", () => {
  let server: ServerProcess;

  beforeAll(async () => {
    server = await startServerProcess(slowServer);
  });
  afterAll(() => server.stop());

  const aborts = () => server.stderr().split('\n').filter((line) => line.startsWith('wait_for_cancel aborted')).length;

  it('aborts when a 2026-07-28 client cancels the call', async () => {
    const client = new Client({ name: 'cancel', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.origin}/mcp`)));
    const before = aborts();
    const controller = new AbortController();
    const call = client.callTool({ name: 'wait_for_cancel', arguments: {} }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 300);
    await expect(call).rejects.toThrow();
    await waitFor(() => aborts() > before);
    expect(aborts()).toBe(before + 1);
    await client.close();
  });

  // A 2025-era cancellation is a notification on a separate POST, which a stateless server cannot
  // route to the call in flight; the disconnect that follows is what reaches the tool.
  it('aborts when a 2025-era client goes away mid-call', async () => {
    const client = new LegacyClient({ name: 'cancel-2025', version: '1' });
    await client.connect(new LegacyHttpTransport(new URL(`${server.origin}/mcp`)));
    const before = aborts();
    const call = client.callTool({ name: 'wait_for_cancel', arguments: {} });
    setTimeout(() => void client.close(), 300);
    await expect(call).rejects.toThrow();
    await waitFor(() => aborts() > before);
    expect(aborts()).toBe(before + 1);
  });
});
