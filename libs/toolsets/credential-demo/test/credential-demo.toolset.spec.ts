import 'reflect-metadata';
import { createHash } from 'node:crypto';
import { container } from 'tsyringe';
import { buildServer, LOGGER, type Logger } from '@toolsets/core';
import { connectToolset, textOf } from '@toolsets/testing';
import { ACCOUNT_RESOLVER, CredentialDemoToolset, type AccountResolver } from '../src';

const expectedAccount = (token: string) => `user-${createHash('sha256').update(token).digest('hex').slice(0, 8)}`;

describe('CredentialDemoToolset', () => {
  it("advertises whoami with no arguments and the seed contract's output schema", async () => {
    const toolset = await connectToolset(CredentialDemoToolset);
    const [whoami] = await toolset.listTools();
    expect(whoami.name).toBe('whoami');
    expect(whoami.description).toContain("Report which account the calling user's credential belongs to.");
    expect(whoami.description).toContain('`x-demo-token` HTTP header');
    expect(whoami.description).toContain('cannot be passed as an argument');
    expect(whoami.inputSchema).toEqual({ type: 'object', properties: {}, additionalProperties: false });
    expect(whoami.outputSchema).toEqual({
      type: 'object',
      title: 'WhoamiResult',
      description: 'The resolved account id, also stated in the message.',
      properties: { message: expect.objectContaining({ type: 'string' }), account: { type: 'string' } },
      required: ['message'],
    });
    await toolset.close();
  });

  it.each(['modern', 'legacy'] as const)('resolves the account of the token in the x-demo-token header (%s era)', async (era) => {
    const token = 'demo-token-123';
    const toolset = await connectToolset(CredentialDemoToolset, { headers: { 'x-demo-token': token }, era });
    const result = await toolset.call('whoami');
    const account = expectedAccount(token);
    expect(result.structuredContent).toEqual({ message: `The caller's credential belongs to account ${account}.`, account });
    expect(textOf(result)).not.toContain(token);
    await toolset.close();
  });

  it('asks the user to configure the header when it is missing', async () => {
    const toolset = await connectToolset(CredentialDemoToolset);
    const result = await toolset.call('whoami');
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('configure their MCP client to send the `x-demo-token` header');
    await toolset.close();
  });

  it('refuses the token passed as an argument, without echoing it', async () => {
    const toolset = await connectToolset(CredentialDemoToolset);
    const result = await toolset.call('whoami', { 'x-demo-token': 'sneaked-in-secret' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("'x-demo-token' is not an argument of this tool (it takes no arguments).");
    expect(JSON.stringify(result)).not.toContain('sneaked-in-secret');
    await toolset.close();
  });

  it('uses the account resolver registered in the app container', async () => {
    const app = container.createChildContainer();
    app.register<AccountResolver>(ACCOUNT_RESOLVER, { useValue: { resolve: async (token) => `verified-${token.length}` } });
    const toolset = await connectToolset(CredentialDemoToolset, { container: app, headers: { 'x-demo-token': 'abcd' } });
    expect((await toolset.call('whoami')).structuredContent).toMatchObject({ account: 'verified-4' });
    await toolset.close();
  });

  it('logs only the presence and length of the token, never the token', async () => {
    const lines: string[] = [];
    const logger: Logger = {
      info: (message, fields) => lines.push(JSON.stringify({ message, ...fields })),
      warn: (message, fields) => lines.push(JSON.stringify({ message, ...fields })),
      error: (message, fields) => lines.push(JSON.stringify({ message, ...fields })),
    };
    const app = container.createChildContainer();
    app.register(LOGGER, { useValue: logger });
    const server = buildServer({ name: 'cred', version: '1', toolsets: [CredentialDemoToolset], container: app, logger });
    const token = 'very-secret-token-value';
    const withToken = await connectToolset(server, { headers: { 'x-demo-token': token } });
    await withToken.call('whoami');
    const without = await connectToolset(server);
    await without.call('whoami');
    expect(lines).toContainEqual(JSON.stringify({ message: 'whoami', tokenPresent: true, tokenLength: token.length }));
    expect(lines).toContainEqual(JSON.stringify({ message: 'whoami', tokenPresent: false, tokenLength: 0 }));
    expect(lines.join('\n')).not.toContain(token);
    await Promise.all([withToken.close(), without.close()]);
  });
});
