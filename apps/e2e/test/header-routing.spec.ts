import { resolve } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startNginx, type Nginx } from './support/nginx';
import { startServerProcess, type ServerProcess } from './support/server-process';

const regionServer = resolve(__dirname, '../fixtures/region-server.cjs');

describe('a balancer that routes by an argument mirrored into a header (x-mcp-header)', () => {
  let replicas: ServerProcess[] = [];
  let nginx: Nginx;
  beforeAll(async () => {
    replicas = await Promise.all(['eu-replica', 'us-replica'].map((name) => startServerProcess(regionServer, { REPLICA: name, DRAIN_DELAY_MS: '0' })));
    const [eu, us] = replicas.map((replica) => Number(new URL(replica.origin).port)) as [number, number];
    nginx = await startNginx([eu, us], { routeBy: { header: 'mcp-param-region', routes: { eu, us } } });
  }, 60_000);
  afterAll(async () => {
    await nginx?.stop();
    await Promise.all(replicas.map(async (replica) => {
      replica.child.kill('SIGTERM');
      await replica.exited;
    }));
  });

  it("sends each call to its region's replica: the SDK's client mirrors the argument into Mcp-Param-Region and nginx routes by it", async () => {
    const client = new Client({ name: 'routed', version: '0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${nginx.origin}/mcp`)));
    try {
      await client.listTools();
      const served: string[] = [];
      for (const region of ['eu', 'us', 'eu', 'us', 'eu', 'us']) {
        const result = await client.callTool({ name: 'where', arguments: { region } });
        served.push((result.content as { text: string }[])[0]!.text);
      }
      expect(served).toEqual(['eu served by eu-replica', 'us served by us-replica', 'eu served by eu-replica', 'us served by us-replica', 'eu served by eu-replica', 'us served by us-replica']);
    } finally {
      await client.close();
    }
  });

  it('is refused by the replica (400, -32020) when the header routes one way and the argument says another', async () => {
    const response = await fetch(`${nginx.origin}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'where', 'mcp-param-region': 'eu' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'where', arguments: { region: 'us' }, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } },
      }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ id: 3, error: { code: -32020, data: { mismatch: { header: 'Mcp-Param-Region' } } } });
  });
});
