import { accountOf, httpClient, type AnyClient } from './support/clients';
import { appMain, startServerProcess, type ServerProcess } from './support/server-process';


describe('credential isolation under concurrency', () => {
  let server: ServerProcess;

  beforeAll(async () => {
    server = await startServerProcess(appMain('credential-demo-server'));
  });
  afterAll(() => server.stop());

  it('answers 500 concurrent whoami calls with 100 distinct tokens, each with its own account', async () => {
    const tokens = Array.from({ length: 100 }, (_, i) => `concurrency-token-${i}-${Math.random().toString(36).slice(2)}`);
    // Half the callers speak 2026-07-28, half the 2025 protocol, all against the same endpoint.
    const clients: AnyClient[] = await Promise.all(
      tokens.map((token, i) => httpClient(i % 2 ? 'legacy' : 'modern', `${server.origin}/mcp`, { 'x-demo-token': token })),
    );
    const calls = tokens.flatMap((token, i) =>
      Array.from({ length: 5 }, async () => {
        const result = await clients[i].callTool({ name: 'whoami', arguments: {} });
        return { expected: accountOf(token), got: (result['structuredContent'] as { account?: string } | undefined)?.account };
      }),
    );
    const results = await Promise.all(calls);
    const mismatches = results.filter((r) => r.got !== r.expected);
    expect(results).toHaveLength(500);
    expect(mismatches).toEqual([]);
    await Promise.all(clients.map((client) => client.close()));
  });
});
