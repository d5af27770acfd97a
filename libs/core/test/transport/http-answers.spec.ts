import 'reflect-metadata';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyHttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { injectable } from 'tsyringe';
import { buildServer, RequestContext, serveHttp, Tool, ToolResult, Toolset, type HttpServerHandle } from '../../src';
import { recordingLogger } from '../support/connect';

/** Released by the test once the client has seen the tool's first progress notification. */
let releaseTool: (() => void) | undefined;

@injectable()
@Toolset({ name: 'answers' })
class AnswersToolset {
  constructor(private readonly context: RequestContext) {}

  @Tool({ description: 'Answer at once.', returns: ToolResult })
  quick(): ToolResult {
    return { message: 'quick' };
  }

  @Tool({ description: 'Report progress, then wait until the client has seen it (5 s at most).', returns: ToolResult })
  async stepwise(): Promise<ToolResult> {
    const seen = new Promise<string>((resolve) => {
      releaseTool = () => resolve('released after the client saw progress');
      setTimeout(() => resolve('the client saw no progress within 5 s'), 5_000).unref();
    });
    await this.context.progress(1, 2, 'half way');
    return { message: await seen };
  }
}

/** A fetch that remembers each answer's status, headers and body (read from a copy), for the client transports. */
function recordingFetch() {
  const answers: { method: string; status: number; headers: Headers; body: Promise<string> }[] = [];
  const fetchFn = async (input: string | URL | Request, init?: RequestInit) => {
    const response = await fetch(input, init);
    answers.push({ method: init?.method ?? 'GET', status: response.status, headers: response.headers, body: response.clone().text() });
    return response;
  };
  return { answers, fetch: fetchFn };
}

/** What a POST to the MCP endpoint gets back, through the real HTTP server on loopback. */
describe('answers to MCP calls over HTTP', () => {
  let http: HttpServerHandle;

  beforeAll(async () => {
    const { logger } = recordingLogger();
    http = await serveHttp(buildServer({ name: 'answers', version: '1.0.0', toolsets: [AnswersToolset], logger }), { port: 0, logger });
  });
  afterAll(() => http.close());

  it('sends a 2026-07-28 result as one JSON body of the declared length', async () => {
    const recorder = recordingFetch();
    const client = new Client({ name: 'answers', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${http.origin}/mcp`), { fetch: recorder.fetch }));
    recorder.answers.length = 0;
    expect((await client.callTool({ name: 'quick', arguments: {} })).structuredContent).toEqual({ message: 'quick' });
    const [answer] = recorder.answers;
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(answer.headers.get('transfer-encoding')).toBeNull();
    const body = await answer.body;
    expect(JSON.parse(body)).toMatchObject({ result: { structuredContent: { message: 'quick' } } });
    expect(answer.headers.get('content-length')).toBe(String(Buffer.byteLength(body)));
    await client.close();
  });

  it('sends a 2025-era result on an event stream that ends after it', async () => {
    const recorder = recordingFetch();
    const client = new LegacyClient({ name: 'answers-2025', version: '1' });
    await client.connect(new LegacyHttpTransport(new URL(`${http.origin}/mcp`), { fetch: recorder.fetch }));
    recorder.answers.length = 0;
    expect((await client.callTool({ name: 'quick', arguments: {} })).structuredContent).toEqual({ message: 'quick' });
    // The 2025-era client may also try a GET stream, which a stateless server declines.
    const [answer] = recorder.answers.filter((a) => a.method === 'POST');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/event-stream/);
    // The copy's text resolves only once the server has ended the stream.
    const events = (await answer.body).split('\n').filter((line) => line.startsWith('data: '));
    expect(events.map((line) => JSON.parse(line.slice(6)))).toMatchObject([{ result: { structuredContent: { message: 'quick' } } }]);
    await client.close();
  });

  it('streams progress to the client while the tool is still running', async () => {
    const recorder = recordingFetch();
    const client = new Client({ name: 'answers', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${http.origin}/mcp`), { fetch: recorder.fetch }));
    const seen: unknown[] = [];
    const result = await client.callTool(
      { name: 'stepwise', arguments: {} },
      {
        onprogress: (progress) => {
          seen.push(progress);
          releaseTool?.();
        },
      },
    );
    expect(seen).toEqual([{ progress: 1, total: 2, message: 'half way' }]);
    expect(result.structuredContent).toEqual({ message: 'released after the client saw progress' });
    expect(recorder.answers.at(-1)!.headers.get('content-type')).toMatch(/^text\/event-stream/);
    await client.close();
  });
});
