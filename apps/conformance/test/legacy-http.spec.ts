import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { startApp, type RunningApp } from './support/start-app';

/** What a 2025-era client gets over stateless HTTP when a tool needs to ask it something. */
describe('elicitation for a 2025-era client over stateless HTTP', () => {
  let app: RunningApp;
  let origin: string;

  beforeAll(async () => {
    app = await startApp();
    origin = app.origin;
  });
  afterAll(() => app.stop());

  it('answers at once with an isError result that says why, instead of waiting for an answer that cannot arrive', async () => {
    const client = new Client({ name: 'legacy-http', version: '0' }, { capabilities: { elicitation: {} } });
    let asked = false;
    client.setRequestHandler(ElicitRequestSchema, async () => {
      asked = true;
      return { action: 'accept', content: { username: 'ada', email: 'ada@example.com' } };
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${origin}/mcp`)));
    const started = Date.now();
    const result = await client.callTool({ name: 'test_elicitation', arguments: { message: 'Who are you?' } });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain('elicitation_unavailable: This tool needs to ask the user a question (elicitation), which a 2025-era client over stateless HTTP cannot answer');
    expect(asked).toBe(false);
    // Waiting for the answer would take the client's request timeout (60 s); a bound any machine meets.
    expect(Date.now() - started).toBeLessThan(30_000);
    await client.close();
  });
});
