import { accountOf, stdioClient as stdioProcess, textOf, type AnyClient, type Era } from './support/clients';
import { appMain } from './support/server-process';

/** Starts an app with --stdio as a child process of the SDK's own stdio transport. */
const stdioClient = (era: Era, app: string, env: Record<string, string> = {}): Promise<AnyClient> => stdioProcess(era, [appMain(app), '--stdio'], env);

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
