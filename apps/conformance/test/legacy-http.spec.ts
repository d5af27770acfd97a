import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';

/** What a 2025-era client gets over stateless HTTP when a tool needs to ask it something. */
describe('elicitation for a 2025-era client over stateless HTTP', () => {
  let app: ChildProcess;
  let origin: string;

  beforeAll(async () => {
    app = spawn(process.execPath, [join(__dirname, '../dist/main.js')], { env: { ...process.env, HOST: '127.0.0.1', PORT: '0', DRAIN_DELAY_MS: '0' }, stdio: ['ignore', 'ignore', 'pipe'] });
    origin = await new Promise<string>((resolve, reject) => {
      let stderr = '';
      app.stderr!.on('data', (chunk) => {
        stderr += chunk;
        const line = stderr.split('\n').find((l) => l.includes('"serving over streamable HTTP"'));
        if (line) resolve(JSON.parse(line).origin);
      });
      app.on('exit', (code) => reject(new Error(`exited with ${code}: ${stderr}`)));
    });
  });
  afterAll(async () => {
    const exited = new Promise((resolve) => app.once('exit', resolve));
    app.kill('SIGTERM');
    await exited;
  });

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
    expect(Date.now() - started).toBeLessThan(5_000);
    await client.close();
  });
});
