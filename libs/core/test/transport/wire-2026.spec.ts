import 'reflect-metadata';
import { buildServer, serveHttp, Tool, ToolResult, Toolset, type HttpServerHandle } from '../../src';
import { recordingLogger } from '../support/connect';

class Said extends ToolResult {}

@Toolset({ name: 'echo' })
class EchoToolset {
  @Tool({ description: 'Says hello.', returns: Said })
  hello(): Said {
    return { message: 'hello' };
  }
}

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

/** One POST as written, and its status and JSON-RPC answer. */
async function post(url: string, method: string, headers: Record<string, string>, id = 41) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params: { _meta: META } }),
  });
  const text = await response.text();
  return { status: response.status, bytes: text.length, body: JSON.parse(text) as { id: unknown; error?: { code: number; message: string; data?: unknown } } };
}

describe('the 2026-07-28 wire, as the revision answers its mistakes', () => {
  let handle: HttpServerHandle;
  let url: string;
  beforeAll(async () => {
    handle = await serveHttp(buildServer({ name: 'echo', version: '1', toolsets: [EchoToolset], logger: recordingLogger().logger }), { port: 0 });
    url = `${handle.origin}/mcp`;
  });
  afterAll(() => handle.close());

  it('answers a version that is no version with UnsupportedProtocolVersion: the request id, the revisions served, the value clipped', async () => {
    const short = await post(url, 'server/discover', { 'mcp-protocol-version': 'v999.0.0', 'mcp-method': 'server/discover' });
    expect(short).toMatchObject({ status: 400, body: { id: 41, error: { code: -32022, data: { supported: ['2026-07-28'], requested: 'v999.0.0' } } } });
    const huge = await post(url, 'server/discover', { 'mcp-protocol-version': 'g'.repeat(8_000), 'mcp-method': 'server/discover' });
    expect(huge.status).toBe(400);
    expect(huge.bytes).toBeLessThan(400);
  });

  it('answers initialize, removed on this wire, with 404 and -32601', async () => {
    const answer = await post(url, 'initialize', { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'initialize' });
    expect(answer).toMatchObject({ status: 404, body: { id: 41, error: { code: -32601 } } });
  });

  it('refuses a list request without Mcp-Method, or with another, with 400 and -32020 (the list cache does not answer it)', async () => {
    for (const headers of [{}, { 'mcp-method': 'prompts/list' }] as Record<string, string>[]) {
      const answer = await post(url, 'tools/list', { 'mcp-protocol-version': '2026-07-28', ...headers });
      expect(answer).toMatchObject({ status: 400, body: { id: 41, error: { code: -32020 } } });
    }
    const named = await post(url, 'tools/list', { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' });
    expect(named.status).toBe(200);
  });
});
