import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as LegacyStdioTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { accountOf, textOf, type AnyClient, type Era } from './support/clients';
import { appMain, workspaceRoot } from './support/server-process';

/** Starts an app with --stdio as a child process of the SDK's own stdio transport. */
async function stdioClient(era: Era, app: string, env: Record<string, string> = {}): Promise<AnyClient> {
  const params = {
    command: process.execPath,
    args: [appMain(app), '--stdio'],
    cwd: workspaceRoot,
    env: { PATH: process.env['PATH'] ?? '', ...env },
    stderr: 'pipe' as const,
  };
  if (era === 'modern') {
    const client = new Client({ name: 'e2e-stdio', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StdioClientTransport(params));
    return client as unknown as AnyClient;
  }
  const client = new LegacyClient({ name: 'e2e-stdio-2025', version: '1.0.0' });
  await client.connect(new LegacyStdioTransport(params));
  return client as unknown as AnyClient;
}

describe.each<Era>(['modern', 'legacy'])('the apps over stdio with the %s-era client', (era) => {
  it('serve hello', async () => {
    const client = await stdioClient(era, 'hello-server');
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['hello', 'greet_team', 'hello_card']);
    expect((await client.callTool({ name: 'hello', arguments: { name: 'stdio' } }))['structuredContent']).toEqual({
      message: 'Hello, stdio!',
    });
    await client.close();
  });

  it('read the credential from X_DEMO_TOKEN', async () => {
    const token = `stdio-token-${era}`;
    const client = await stdioClient(era, 'credential-demo-server', { X_DEMO_TOKEN: token });
    const account = accountOf(token);
    expect((await client.callTool({ name: 'whoami', arguments: {} }))['structuredContent']).toEqual({
      message: `The caller's credential belongs to account ${account}.`,
      account,
    });
    await client.close();
  });

  it('explain the environment variable when the credential is missing', async () => {
    const client = await stdioClient(era, 'credential-demo-server');
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    expect(result['isError']).toBe(true);
    expect(textOf(result)).toContain('X_DEMO_TOKEN environment variable');
    await client.close();
  });
});
