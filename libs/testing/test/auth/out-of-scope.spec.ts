import 'reflect-metadata';
import { buildServer, Prompt, RequireScopes, Resource, serveHttp, servingOptionsFromEnvironment, Tool, ToolResult, Toolset, userMessage, type HttpServerHandle, type Logger } from '@toolsets/core';
import { startTestIssuer, type TestIssuer } from '../../src';

class Done extends ToolResult {}

@Toolset({ name: 'vault', description: 'Things behind scopes.' })
@RequireScopes('vault:use')
class VaultToolset {
  @Tool({ description: 'Peek.', returns: Done, annotations: { readOnlyHint: true } })
  peek(): Done {
    return { message: 'peeked' };
  }

  @Tool({ description: 'Write.', returns: Done })
  @RequireScopes('vault:write')
  write(): Done {
    return { message: 'written' };
  }
}

@Toolset({ name: 'secrets', description: 'Only with secrets:read.' })
@RequireScopes('secrets:read')
class SecretsToolset {
  @Prompt({ description: 'Reveal.' })
  reveal() {
    return [userMessage('Reveal it.')];
  }

  @Resource({ uri: 'secrets://list', description: 'The list.', mimeType: 'text/plain' })
  list() {
    return 'none';
  }
}

const quiet: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };
const HEADERS = { accept: 'application/json, text/event-stream', 'content-type': 'application/json', 'mcp-protocol-version': '2025-11-25' };

async function send(url: string, token: string, method: string, params: object): Promise<{ status: number; body: string }> {
  const response = await fetch(url, { method: 'POST', headers: { ...HEADERS, authorization: `Bearer ${token}` }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  return { status: response.status, body: await response.text() };
}

/** The answer with the asked-for name replaced, so two answers compare by everything else. */
const shape = (answer: { status: number; body: string }, name: string) => ({ status: answer.status, body: answer.body.split(name).join('<name>') });

jest.setTimeout(30_000);

describe('AUTH_OUT_OF_SCOPE', () => {
  let issuer: TestIssuer;

  beforeAll(async () => (issuer = await startTestIssuer()));
  afterAll(() => issuer.close());

  async function serve(outOfScope?: 'hide' | 'step-up'): Promise<HttpServerHandle> {
    const server = buildServer({ name: 'vault', version: '1', toolsets: [VaultToolset, SecretsToolset], logger: quiet });
    const http = await serveHttp(server, { port: 0, drainDelayMs: 0, drainTimeoutMs: 300, auth: { issuer: issuer.issuer, ...(outOfScope && { outOfScope }) }, logger: quiet });
    issuer.audience = http.mounts[0]!.url;
    return http;
  }

  it('step-up (the default) answers 403 insufficient_scope naming the scopes, which tells a token holder the tool exists', async () => {
    const http = await serve();
    const token = await issuer.mint({ scopes: ['vault:use'] });
    const refused = await send(http.mounts[0]!.url, token, 'tools/call', { name: 'write', arguments: {} });
    expect(refused.status).toBe(403);
    expect(refused.body).toContain('insufficient_scope');
    await http.close();
  });

  it('hide answers a tool, prompt or resource the token lacks scopes for exactly as a name the server does not have', async () => {
    const http = await serve('hide');
    const url = http.mounts[0]!.url;
    const token = await issuer.mint({ scopes: ['vault:use'] });
    expect(shape(await send(url, token, 'tools/call', { name: 'write', arguments: {} }), 'write')).toEqual(shape(await send(url, token, 'tools/call', { name: 'wrote', arguments: {} }), 'wrote'));
    const hiddenTool = await send(url, token, 'tools/call', { name: 'write', arguments: {} });
    expect(hiddenTool.status).toBe(200);
    expect(hiddenTool.body).not.toContain('vault:write');
    expect(hiddenTool.body).toContain("Unknown tool 'write'");
    expect(shape(await send(url, token, 'prompts/get', { name: 'reveal' }), 'reveal')).toEqual(shape(await send(url, token, 'prompts/get', { name: 'revels' }), 'revels'));
    expect(shape(await send(url, token, 'resources/read', { uri: 'secrets://list' }), 'secrets://list')).toEqual(shape(await send(url, token, 'resources/read', { uri: 'secrets://lost' }), 'secrets://lost'));
    expect(shape(await send(url, token, 'completion/complete', { ref: { type: 'ref/prompt', name: 'reveal' }, argument: { name: 'x', value: '' } }), 'reveal')).toEqual(
      shape(await send(url, token, 'completion/complete', { ref: { type: 'ref/prompt', name: 'revels' }, argument: { name: 'x', value: '' } }), 'revels'),
    );
    // With the scope the tool works as usual.
    const writer = await issuer.mint({ scopes: ['vault:use', 'vault:write'] });
    expect((await send(url, writer, 'tools/call', { name: 'write', arguments: {} })).body).toContain('written');
    await http.close();
  });

  it('is read from AUTH_OUT_OF_SCOPE, and anything but step-up or hide stops startup with the fix', async () => {
    expect(servingOptionsFromEnvironment({ AUTH_ISSUER: issuer.issuer, AUTH_OUT_OF_SCOPE: 'hide' }).auth).toMatchObject({ outOfScope: 'hide' });
    const server = buildServer({ name: 'vault', version: '1', toolsets: [VaultToolset], logger: quiet });
    await expect(serveHttp(server, { port: 0, auth: { issuer: issuer.issuer, outOfScope: 'conceal' as never }, logger: quiet })).rejects.toThrow(
      'Not starting: AUTH_OUT_OF_SCOPE is "conceal". Fix: use step-up (403 insufficient_scope naming the scopes, the default) or hide (answered as an unknown name)',
    );
  });
});
