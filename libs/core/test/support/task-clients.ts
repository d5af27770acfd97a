import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createTaskSessionFromClient, toolDeclarationFromMcpTool, type RawClientDispatch } from '@modelcontextprotocol/ext-tasks/client';

export const MODERN = '2026-07-28';

/** One JSON-RPC answer from the body of a Streamable HTTP reply (JSON, or the SSE stream's message with our id). */
function answerIn(body: string, contentType: string | null, id: number): Record<string, unknown> {
  if (!contentType?.includes('text/event-stream')) return JSON.parse(body) as Record<string, unknown>;
  const messages = body.split('\n').filter((line) => line.startsWith('data:')).map((line) => JSON.parse(line.slice(5)) as Record<string, unknown>);
  const answer = messages.find((message) => message.id === id);
  if (!answer) throw new Error(`no answer with id ${id} in ${body.slice(0, 200)}`);
  return answer;
}

let nextId = 1_000_000;

/** Sends one JSON-RPC request over Streamable HTTP, with the 2026-07-28 routing headers: the `rawDispatch` the tasks extension's V2 path needs. */
export function httpDispatch(url: URL, headers: Record<string, string> = {}): RawClientDispatch {
  return async (request, options) => {
    const { method, params } = request as { method: string; params?: Record<string, unknown> };
    const id = nextId++;
    const name = method === 'tools/call' ? (params?.name as string) : method.startsWith('tasks/') ? (params?.taskId as string) : undefined;
    // Later sets win, whatever their case: the library's own routing headers over ours.
    const sent = new Headers({ 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': MODERN, 'mcp-method': method });
    if (name !== undefined) sent.set('mcp-name', name);
    for (const [key, value] of Object.entries({ ...headers, ...options?.context?.headers })) sent.set(key, value);
    const reply = await fetch(url, {
      method: 'POST',
      signal: options?.signal,
      headers: sent,
      body: JSON.stringify({ jsonrpc: '2.0', id, method, ...(params && { params }) }),
    });
    const answer = answerIn(await reply.text(), reply.headers.get('content-type'), id);
    return answer.error ? { kind: 'error', error: answer.error as never } : { kind: 'result', result: answer.result as never };
  };
}

/** A 2026-07-28 client over HTTP, and the tasks extension's requester session on it (its V2 path). */
export async function modernTaskSession(url: URL, options: { headers?: Record<string, string>; onInput?: Parameters<typeof createTaskSessionFromClient>[1]['onInputRequest'] } = {}) {
  const client = new Client({ name: 'tasks-v2', version: '1' }, { versionNegotiation: { mode: { pin: MODERN } } });
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: options.headers ?? {} } }));
  // The tool declarations from the SDK client's own tools/list (the session's built-in listing wants a plain JSON value the SDK's parsed result is not).
  const tools = new Map((await client.listTools()).tools.map((tool) => [tool.name, toolDeclarationFromMcpTool(tool)]));
  // `as never`: the library's ES-module typings name the same Client through the SDK's .d.mts, this test through its .d.cts.
  const session = createTaskSessionFromClient(client as never, {
    tools: { currentTool: (name) => tools.get(name) },
    endpointId: url.href,
    rawDispatch: httpDispatch(url, options.headers),
    v2RequestFraming: { protocolVersion: MODERN, clientInfo: { name: 'tasks-v2', version: '1' }, clientCapabilities: {} },
    ...(options.onInput && { onInputRequest: options.onInput }),
  });
  return { client, session, close: async () => (await session.close(), await client.close()) };
}
