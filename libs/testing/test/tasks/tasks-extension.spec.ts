import 'reflect-metadata';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { createTaskSessionFromClient, toolDeclarationFromMcpTool, type ToolDeclarationProvider } from '@modelcontextprotocol/ext-tasks/client';
import Ajv2020 from 'ajv/dist/2020';
import { Max, Min } from 'class-validator';
import { buildServer, Field, RequestContext, Result, serveHttp, TaskContext, Tool, ToolError, ToolResult, Toolset, type HttpServerHandle } from '@toolsets/core';
import { httpDispatch, MODERN_REVISION as MODERN, modernMeta, pollUntil } from '../../src';

/** A 2026-07-28 client over HTTP, and the tasks extension's requester session on it (its V2 path). */
async function modernTaskSession(url: URL, options: { headers?: Record<string, string>; onInput?: Parameters<typeof createTaskSessionFromClient>[1]['onInputRequest'] } = {}) {
  const client = new Client({ name: 'tasks-v2', version: '1' }, { versionNegotiation: { mode: { pin: MODERN } } });
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: options.headers ?? {} } }));
  // The declarations from the SDK client's own tools/list (the session's built-in listing wants a plain JSON value the SDK's parsed result is not).
  const tools = new Map((await client.listTools()).tools.map((tool) => [tool.name, toolDeclarationFromMcpTool(tool)]));
  // `as never`: the library's ES-module typings name the same Client through the SDK's .d.mts, this test through its .d.cts.
  const session = createTaskSessionFromClient(client as never, {
    tools: { currentTool: (name) => tools.get(name) },
    endpointId: url.href,
    rawDispatch: httpDispatch(url, options.headers) as never,
    v2RequestFraming: { protocolVersion: MODERN, clientInfo: { name: 'tasks-v2', version: '1' }, clientCapabilities: {} },
    ...(options.onInput && { onInputRequest: options.onInput }),
  });
  return { client, session, close: async () => (await session.close(), await client.close()) };
}

class ReportArgs {
  @Field({ description: 'How many pages to render.' })
  @Min(1)
  @Max(50)
  pages!: number;
}

class PublishForm {
  @Field({ description: 'Publish the report once it is rendered?' })
  publish!: boolean;
}

@Result({ description: 'The rendered report.' })
class ReportResult extends ToolResult {
  @Field({ description: 'Pages rendered.' })
  pages!: number;

  @Field({ description: 'Whether it was published.' })
  published!: boolean;
}

/** Releases the tools that wait for the test, one call at a time. */
const gates: (() => void)[] = [];
const waitForTest = () => new Promise<void>((resolve) => gates.push(resolve));
const releaseAll = () => gates.splice(0).forEach((release) => release());
const seen: { isTask: boolean; taskId?: string }[] = [];
/** The archive tasks whose signal aborted and whose tool then returned. */
const archivesStopped: string[] = [];

@Toolset({ name: 'reports', credentialHeaders: ['x-team-key'] })
class ReportsToolset {
  constructor(
    private readonly task: TaskContext,
    private readonly context: RequestContext,
  ) {}

  @Tool({ description: 'Render a report, then ask whether to publish it.', args: ReportArgs, returns: [ReportResult, ToolError], elicits: [PublishForm], task: { support: 'optional', pollIntervalMs: 20 } })
  async renderReport({ pages }: ReportArgs): Promise<ReportResult | ToolError> {
    seen.push({ isTask: this.task.isTask, taskId: this.task.taskId });
    await this.task.progress(0, pages, 'starting');
    await waitForTest();
    await this.task.status(`rendered ${pages} pages`);
    const answer = await this.task.requireInput(PublishForm, `Publish the ${pages}-page report?`);
    if (answer.action !== 'accept') return new ToolError('not_published', `The user chose to ${answer.action}.`);
    return { message: `Rendered ${pages} pages.`, pages, published: answer.content.publish };
  }

  @Tool({ description: 'Ask whether to publish, before any work.', args: ReportArgs, returns: [ReportResult, ToolError], elicits: [PublishForm], task: { support: 'optional', pollIntervalMs: 20 } })
  async askNow({ pages }: ReportArgs): Promise<ReportResult | ToolError> {
    const answer = await this.task.requireInput(PublishForm, `Publish ${pages} pages?`);
    if (answer.action !== 'accept') return new ToolError('not_published', `The user chose to ${answer.action}.`);
    return { message: `Rendered ${pages} pages.`, pages, published: answer.content.publish };
  }

  @Tool({ description: 'Render quickly.', args: ReportArgs, returns: [ReportResult, ToolError], task: 'optional' })
  quick({ pages }: ReportArgs): ReportResult | ToolError {
    if (pages === 13) throw new Error(`unlucky page for ${this.context.credential('x-team-key')}`);
    if (pages === 7) return new ToolError('too_short', 'Seven pages is not a report.');
    return { message: `Rendered ${pages} pages.`, pages, published: false };
  }

  @Tool({ description: 'Archive everything; only as a task.', returns: ReportResult, task: { support: 'required', pollIntervalMs: 20 } })
  async archive(): Promise<ReportResult> {
    await new Promise<void>((resolve) => this.task.signal.addEventListener('abort', () => resolve(), { once: true }));
    archivesStopped.push(this.task.taskId!);
    // A result after cancellation, which the task must not take.
    return { message: 'stopped', pages: 0, published: false };
  }
}

const KEY = { 'x-team-key': 'team-secret-1' };
let http: HttpServerHandle;
let url: URL;
let definition: ReturnType<typeof buildServer>;
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

beforeAll(async () => {
  definition = buildServer({ name: 'reports', version: '1.0.0', toolsets: [ReportsToolset], logger: quiet });
  http = await serveHttp(definition, { port: 0 });
  url = new URL(`${http.origin}/mcp`);
});
afterAll(async () => {
  releaseAll();
  await http.close();
});

describe('tasks over the 2026-07-28 extension, driven by the official requester library', () => {
  it('runs a task tool as a task: working, input_required answered by tasks/update, completed with the typed, valid result', async () => {
    const asked: unknown[] = [];
    const { client, session, close } = await modernTaskSession(url, {
      headers: KEY,
      onInput: async (request) => {
        asked.push(request);
        return { action: 'accept', content: { publish: true } } as never;
      },
    });
    try {
      const execution = await session.callTool('render_report', { pages: 3 });
      expect(execution.kind).toBe('task');
      await pollUntil(async () => gates.length, (n) => n > 0, { what: 'the tool waiting for the test' });
      releaseAll();
      const { outcome } = await execution.settle();
      expect(outcome.status).toBe('completed');
      const result = (outcome as { result: { structuredContent: unknown; isError?: boolean } }).result;
      expect(result.structuredContent).toEqual({ message: 'Rendered 3 pages.', pages: 3, published: true });
      expect(result.isError).toBeFalsy();
      // Valid against the output schema the tool advertises, as a client checks it.
      const advertised = (await client.listTools()).tools.find((tool) => tool.name === 'render_report')!.outputSchema!;
      const validate = new Ajv2020({ strict: false }).compile(advertised);
      expect([validate(result.structuredContent), validate.errors]).toEqual([true, null]);
      expect(asked).toEqual([{ kind: 'elicitation', params: expect.objectContaining({ message: 'Publish the 3-page report?', requestedSchema: expect.objectContaining({ properties: { publish: expect.objectContaining({ type: 'boolean' }) } }) }) }]);
      expect(seen.at(-1)).toEqual({ isTask: true, taskId: expect.any(String) });
    } finally {
      await close();
    }
  });

  it('answers a client that did not declare the extension with the blocking result, never a task', async () => {
    const client = new Client({ name: 'plain', version: '1' }, { versionNegotiation: { mode: { pin: MODERN } } });
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: KEY } }));
    try {
      const result = await client.callTool({ name: 'quick', arguments: { pages: 2 } });
      expect(result.structuredContent).toEqual({ message: 'Rendered 2 pages.', pages: 2, published: false });
      await expect(client.callTool({ name: 'archive', arguments: {} })).rejects.toThrow(/-32021|runs only as a task/);
    } finally {
      await client.close();
    }
  });

  it('ends a ToolError as completed with the tool error result, and a throw as failed with the cause masked', async () => {
    const { session, close } = await modernTaskSession(url, { headers: KEY });
    try {
      const refused = await (await session.callTool('quick', { pages: 7 })).settle();
      // The library reports an isError result as a failed outcome; on the wire the task is completed, with the tool's error result.
      expect(refused.lastTask?.raw).toMatchObject({ status: 'completed', result: { isError: true, structuredContent: { error: 'too_short', detail: 'Seven pages is not a report.' } } });
      const thrown = await (await session.callTool('quick', { pages: 13 })).settle();
      expect(thrown.outcome.status).toBe('failed');
      const error = (thrown.outcome as { error: Error & { code?: number } }).error;
      expect(error.message).toMatch(/failed unexpectedly \(correlation id [0-9a-f-]{36}\)/);
      expect(JSON.stringify(thrown)).not.toContain('team-secret-1');
      expect(JSON.stringify(thrown)).not.toContain('unlucky');
    } finally {
      await close();
    }
  });

  it('cancels a running task: its signal aborts, and it stays cancelled', async () => {
    const { session, close } = await modernTaskSession(url, { headers: KEY });
    try {
      const execution = await session.callTool('archive', {});
      expect(execution.kind).toBe('task');
      await execution.cancel();
      const taskId = execution.handle!.taskId;
      // The tool saw its signal abort, and returned a result after the cancellation.
      await pollUntil(async () => archivesStopped.includes(taskId), (stopped) => stopped, { what: "the archive tool's abort" });
      await new Promise((resolve) => setTimeout(resolve, 50));
      const get = await httpDispatch(url, KEY)({ method: 'tasks/get', params: { taskId, _meta: modernMeta() } });
      expect(get).toMatchObject({ kind: 'result', result: { status: 'cancelled' } });
      expect((get as { result: Record<string, unknown> }).result['result']).toBeUndefined();
    } finally {
      await close();
    }
  });

  it("answers another caller's tasks/get, tasks/update and tasks/cancel exactly as an unknown id", async () => {
    const { session, close } = await modernTaskSession(url, { headers: KEY });
    try {
      const execution = await session.callTool('archive', {});
      const taskId = execution.handle!.taskId;
      const meta = modernMeta();
      const other = httpDispatch(url, { 'x-team-key': 'someone-else' });
      for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
        const theirs = await other({ method, params: { taskId, inputResponses: {}, _meta: meta } });
        const unknown = await other({ method, params: { taskId: 'no-such-task', inputResponses: {}, _meta: meta } });
        expect(theirs).toEqual(unknown);
        expect(theirs).toMatchObject({ kind: 'error', error: { code: -32602 } });
      }
      // Without declaring the extension, a 2026-07-28 request may not use its methods.
      const undeclared = await httpDispatch(url, KEY)({ method: 'tasks/get', params: { taskId, _meta: modernMeta({ tasks: false }) } });
      expect(undeclared).toMatchObject({ kind: 'error', error: { code: -32021 } });
      await execution.cancel();
    } finally {
      await close();
    }
  });
});

describe('tasks over the 2025-11-25 revision, driven by the official requester library', () => {
  async function legacySession() {
    const client = new Client({ name: 'tasks-v1', version: '1' }, { versionNegotiation: { mode: 'legacy' } });
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: KEY } }));
    const tools = new Map((await client.listTools()).tools.map((tool) => [tool.name, toolDeclarationFromMcpTool(tool)]));
    const provider: ToolDeclarationProvider = { currentTool: (name) => tools.get(name) };
    const session = createTaskSessionFromClient(client as never, { endpointId: `${url.href}#v1`, tools: provider });
    return { client, session, tools, close: async () => (await session.close(), await client.close()) };
  }

  it('advertises taskSupport, creates the task on params.task, and gives the result through tasks/result', async () => {
    const { session, tools, close } = await legacySession();
    try {
      expect(tools.get('quick')?.taskSupport).toBe('optional');
      expect(tools.get('archive')?.taskSupport).toBe('required');
      const execution = await session.callTool('quick', { pages: 4 }, { task: { preference: 'prefer' } });
      expect(execution.kind).toBe('task');
      const { outcome } = await execution.settle();
      expect(outcome).toMatchObject({ status: 'completed', result: { structuredContent: { message: 'Rendered 4 pages.', pages: 4, published: false } } });
      const listed = await session.listTasks();
      expect(listed.tasks.map((task) => task.taskId)).toContain(execution.handle!.taskId);
    } finally {
      await close();
    }
  });

  it('refuses a task-augmented call with a wrong argument as the protocol error the requester reports, naming the argument and its bound', async () => {
    const { session, close } = await legacySession();
    try {
      // The requester takes only a task handle in answer to params.task: a plain isError result would reach its user as a schema failure.
      await expect(session.callTool('quick', { pages: 0 }, { task: { preference: 'prefer' } })).rejects.toThrow("Invalid arguments for tool 'quick':\n- 'pages' must be >= 1.");
    } finally {
      await close();
    }
  });

  it('asks the input a task needs as a request tied to the task, over a connection that carries answers back', async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const connection = await definition.connect(serverSide, { headers: KEY });
    const client = new Client({ name: 'tasks-v1-memory', version: '1' }, { versionNegotiation: { mode: 'legacy' }, capabilities: { elicitation: {} } });
    await client.connect(clientSide);
    const tools = new Map((await client.listTools()).tools.map((tool) => [tool.name, toolDeclarationFromMcpTool(tool)]));
    const asked: unknown[] = [];
    const session = createTaskSessionFromClient(client as never, {
      endpointId: 'memory#v1',
      tools: { currentTool: (name) => tools.get(name) },
      onInputRequest: async (request) => {
        asked.push(request);
        return { action: 'accept', content: { publish: false } } as never;
      },
    });
    try {
      const execution = await session.callTool('render_report', { pages: 5 }, { task: { preference: 'prefer' } });
      expect(execution.kind).toBe('task');
      await pollUntil(async () => gates.length, (n) => n > 0, { what: 'the tool waiting for the test' });
      releaseAll();
      const { outcome } = await execution.settle();
      expect(outcome).toMatchObject({ status: 'completed', result: { structuredContent: { message: 'Rendered 5 pages.', pages: 5, published: false } } });
      expect(asked).toEqual([{ kind: 'elicitation', params: expect.objectContaining({ message: 'Publish the 5-page report?' }) }]);
    } finally {
      await session.close();
      await client.close();
      await connection.close();
    }
  });

  it('says in its status, where a requester that only polls tasks/get looks, that a question waits on tasks/result over stateless HTTP', async () => {
    // The official library's minimal form: it polls tasks/get and never calls tasks/result, so the question never reached it.
    const { session, close } = await legacySession();
    try {
      const execution = await session.callTool('render_report', { pages: 2 }, { task: { preference: 'prefer' } });
      expect(execution.kind).toBe('task');
      await pollUntil(async () => gates.length, (n) => n > 0, { what: 'the tool waiting for the test' });
      releaseAll();
      const taskId = execution.handle!.taskId;
      const getTask = async () => {
        const response = await fetch(url, {
          method: 'POST',
          headers: { ...KEY, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tasks/get', params: { taskId } }),
        });
        const text = await response.text();
        const line = text.split('\n').find((row) => row.startsWith('data: '));
        return (JSON.parse(line ? line.slice(6) : text) as { result: { status: string; statusMessage?: string } }).result;
      };
      const waiting = await pollUntil(getTask, (task) => task.status === 'input_required', { what: 'the task asking' });
      expect(waiting.statusMessage).toMatch(/cannot carry the question.*tasks\/result.*MCP_SESSIONS=on/);
      await execution.cancel();
    } finally {
      await close();
    }
  });

  it('holds a question asked at once over an HTTP session until the client knows its task, so the library does not answer it cancel', async () => {
    const sessions = await serveHttp(definition, { port: 0, sessions: true });
    const sessionUrl = new URL(`${sessions.origin}/mcp`);
    const client = new Client({ name: 'tasks-v1-session', version: '1' }, { versionNegotiation: { mode: 'legacy' }, capabilities: { elicitation: {} } });
    await client.connect(new StreamableHTTPClientTransport(sessionUrl, { requestInit: { headers: KEY } }));
    const tools = new Map((await client.listTools()).tools.map((tool) => [tool.name, toolDeclarationFromMcpTool(tool)]));
    const asked: unknown[] = [];
    const session = createTaskSessionFromClient(client as never, {
      endpointId: `${sessionUrl.href}#session`,
      tools: { currentTool: (name) => tools.get(name) },
      onInputRequest: async (request) => (asked.push(request), { action: 'accept', content: { publish: true } }) as never,
    });
    try {
      for (const pages of [1, 2, 3]) {
        const execution = await session.callTool('ask_now', { pages }, { task: { preference: 'prefer' } });
        expect(execution.kind).toBe('task');
        expect((await execution.settle()).outcome).toMatchObject({ status: 'completed', result: { structuredContent: { pages, published: true } } });
      }
      expect(asked).toHaveLength(3);
    } finally {
      await session.close();
      await client.close();
      await sessions.close();
    }
  });

  it('refuses a required task tool called without params.task, saying how to call it', async () => {
    const client = new Client({ name: 'plain-v1', version: '1' }, { versionNegotiation: { mode: 'legacy' } });
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: KEY } }));
    try {
      await expect(client.callTool({ name: 'archive', arguments: {} })).rejects.toThrow(/runs only as a task: call it with params.task/);
      expect((await client.callTool({ name: 'quick', arguments: { pages: 1 } })).structuredContent).toMatchObject({ pages: 1 });
    } finally {
      await client.close();
    }
  });
});
