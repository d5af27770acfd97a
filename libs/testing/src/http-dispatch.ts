/** One JSON-RPC answer: what a raw dispatch resolves with (the shape `@modelcontextprotocol/ext-tasks` takes as `rawDispatch`). */
export type RawAnswer = { kind: 'result'; result: Record<string, unknown> } | { kind: 'error'; error: { code: number; message: string; data?: unknown } };

/** Sends one request `{ method, params }`; `options.context.headers` are added to this request alone. */
export type RawDispatch = (request: unknown, options?: { signal?: AbortSignal; context?: { headers?: Readonly<Record<string, string>> } }) => Promise<RawAnswer>;

/** The revision whose routing headers `httpDispatch` sends. */
export const MODERN_REVISION = '2026-07-28';

/** The JSON-RPC answer with `id` in a Streamable HTTP reply body: plain JSON, or the SSE stream's message. */
function answerIn(body: string, contentType: string | null, id: number): Record<string, unknown> {
  if (!contentType?.includes('text/event-stream')) return JSON.parse(body) as Record<string, unknown>;
  const messages = body
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => JSON.parse(line.slice(5)) as Record<string, unknown>);
  const answer = messages.find((message) => message.id === id);
  if (!answer) throw new Error(`No answer with id ${id} in the reply: ${body.slice(0, 200)}`);
  return answer;
}

let nextId = 1_000_000;

/**
 * Sends JSON-RPC requests to an MCP endpoint over Streamable HTTP, one POST each, with the
 * 2026-07-28 routing headers (`Mcp-Method`, and `Mcp-Name`: the tool, prompt, resource URI or task id): for
 * requests an SDK client will not send as written (the tasks extension's `rawDispatch`, or a
 * test of the wire itself). `headers` go with every request (credentials).
 */
export function httpDispatch(url: URL | string, headers: Readonly<Record<string, string>> = {}): RawDispatch {
  return async (request, options) => {
    const { method, params } = request as { method: string; params?: Record<string, unknown> };
    const id = nextId++;
    const name = method === 'tools/call' || method === 'prompts/get' ? params?.['name'] : method === 'resources/read' ? params?.['uri'] : method.startsWith('tasks/') ? params?.['taskId'] : undefined;
    // Later values win, whatever their case: this request's own headers over the defaults.
    const sent = new Headers({ 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': MODERN_REVISION, 'mcp-method': method });
    if (typeof name === 'string') sent.set('mcp-name', name);
    for (const [key, value] of Object.entries({ ...headers, ...options?.context?.headers })) sent.set(key, value);
    const reply = await fetch(url, { method: 'POST', signal: options?.signal, headers: sent, body: JSON.stringify({ jsonrpc: '2.0', id, method, ...(params && { params }) }) });
    const answer = answerIn(await reply.text(), reply.headers.get('content-type'), id);
    if (answer['error']) return { kind: 'error', error: answer['error'] as Extract<RawAnswer, { kind: 'error' }>['error'] };
    return { kind: 'result', result: answer['result'] as Record<string, unknown> };
  };
}

/** The `_meta` a 2026-07-28 request carries, declaring the tasks extension (or, with `tasks: false`, not), and with `elicitation` that the client answers forms. */
export function modernMeta(options: { tasks?: boolean; elicitation?: boolean; client?: { name: string; version: string } } = {}): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': MODERN_REVISION,
    'io.modelcontextprotocol/clientInfo': options.client ?? { name: 'toolsets-testing', version: '0' },
    'io.modelcontextprotocol/clientCapabilities': {
      ...(options.elicitation && { elicitation: { form: {} } }),
      ...(options.tasks !== false && { extensions: { 'io.modelcontextprotocol/tasks': {} } }),
    },
  };
}

/** The result of a raw answer, or a thrown error naming the JSON-RPC error it was instead. */
export function resultOf(answer: RawAnswer): Record<string, unknown> {
  if (answer.kind !== 'result') throw new Error(`expected a result, got ${JSON.stringify(answer.error)}`);
  return answer.result;
}

/**
 * One raw `tools/call` POST of either era, as a client of that era sends it (2026-07-28: routing
 * headers and the envelope in `_meta`; 2025: neither), answered as the server sends it: for tests
 * that compare the bytes of two servers' answers, or read an event stream as it arrives.
 */
export function rawToolsCall(origin: string, era: '2025' | 'modern', call: { tool: string; args?: object; id?: number; headers?: Readonly<Record<string, string>> }): Promise<Response> {
  const modern = era === 'modern';
  return fetch(`${origin}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': modern ? MODERN_REVISION : '2025-11-25',
      ...(modern && { 'mcp-method': 'tools/call', 'mcp-name': call.tool }),
      ...call.headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: call.id ?? 1, method: 'tools/call', params: { name: call.tool, arguments: call.args ?? {}, ...(modern && { _meta: modernMeta() }) } }),
  });
}
