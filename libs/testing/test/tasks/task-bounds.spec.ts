import 'reflect-metadata';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { createTaskSessionFromClient, toolDeclarationFromMcpTool } from '@modelcontextprotocol/ext-tasks/client';
import { Min } from 'class-validator';
import { BullTaskQueue, buildServer, Field, MemoryTaskStore, RateLimit, RedisTaskStore, RequestContext, Result, serveHttp, TaskContext, Tool, ToolError, ToolResult, Toolset, UseInterceptors, type HttpServerHandle, type ServerDefinition } from '@toolsets/core';
import { httpDispatch, modernMeta, pollUntil, startTestIssuer, startTestRedis, type RawAnswer, type TestRedis } from '../../src';

/**
 * The bounds on tasks, through real HTTP (and a real redis-server): a task cannot wait for input
 * forever or outlive its TTL, park its queue slot, exceed its caller's share, be listed or read
 * by a stranger, escape its caller's rate limit, or keep more of a token than a worker needs.
 */
jest.setTimeout(30_000);

class AskArgs {
  @Field({ description: 'A label.' })
  label!: string;
}

class ConfirmForm {
  @Field({ description: 'Go ahead?' })
  go!: boolean;
}

@Result({ description: 'What happened.' })
class Outcome extends ToolResult {
  @Field({ description: 'The label.' })
  label!: string;
}

class QuickArgs {
  @Field({ description: 'A number.' })
  @Min(0)
  n!: number;
}

/** Why each run's signal aborted, by label: the server stops runs by aborting it. */
const aborted = new Map<string, string>();

@Toolset({ name: 'bounded', credentialHeaders: ['x-api-key'] })
class BoundedToolset {
  constructor(
    private readonly task: TaskContext,
    private readonly context: RequestContext,
  ) {}

  @Tool({ description: 'Say which client calls.', returns: Outcome, task: { support: 'optional', pollIntervalMs: 20 } })
  whoCalls(): Outcome {
    return { message: `${this.task.isTask ? 'task' : 'blocking'} call`, label: this.context.client?.name ?? 'nobody' };
  }

  @Tool({ description: 'Ask a question, then answer.', args: AskArgs, returns: [Outcome, ToolError], elicits: [ConfirmForm], task: { support: 'optional', pollIntervalMs: 20 } })
  async ask({ label }: AskArgs): Promise<Outcome | ToolError> {
    this.task.signal.addEventListener('abort', () => aborted.set(label, String((this.task.signal.reason as Error)?.message)), { once: true });
    const answer = await this.task.requireInput(ConfirmForm, `Go ahead with ${label}?`);
    if (answer.action !== 'accept') return new ToolError('declined', `The user chose to ${answer.action}.`);
    return { message: `Done with ${label}.`, label };
  }

  @Tool({ description: 'Answer at once.', args: QuickArgs, returns: Outcome, task: { support: 'optional', pollIntervalMs: 20 } })
  quick({ n }: QuickArgs): Outcome {
    return { message: `Quick ${n}.`, label: `quick-${n}` };
  }

  @UseInterceptors(RateLimit({ capacity: 3, refillPerSecond: 0.001 }))
  @Tool({ description: 'Limited to three calls per caller.', args: QuickArgs, returns: [Outcome, ToolError], task: { support: 'optional', pollIntervalMs: 20 } })
  limited({ n }: QuickArgs): Outcome {
    return { message: `Limited ${n}.`, label: `limited-${n}` };
  }
}

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
const meta = modernMeta();
type Task = { taskId: string; status: string; statusMessage?: string; inputRequests?: Record<string, unknown>; result?: { isError?: boolean; structuredContent?: Record<string, unknown> }; error?: { code: number; message: string } };
const taskOf = (answer: RawAnswer): Task => {
  if (answer.kind === 'error') throw new Error(`${answer.error.code} ${answer.error.message}`);
  return answer.result as unknown as Task;
};

/** A 2025-11-25 request over plain HTTP, in a session when `session` is given. */
async function legacy(url: string, method: string, params: Record<string, unknown>, headers: Record<string, string> = {}, session?: string): Promise<{ answer: Record<string, unknown>; session?: string }> {
  const reply = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', ...(session && { 'mcp-session-id': session }), ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const text = await reply.text();
  if (text === '') return { answer: {}, session: reply.headers.get('mcp-session-id') ?? undefined };
  const body = reply.headers.get('content-type')?.includes('text/event-stream') ? text.split('\n').find((line) => line.startsWith('data:') && line.slice(5).trim() !== '')!.slice(5) : text;
  return { answer: JSON.parse(body) as Record<string, unknown>, session: reply.headers.get('mcp-session-id') ?? undefined };
}

async function openSession(url: string): Promise<string> {
  const { session } = await legacy(url, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'stranger-test', version: '1' } });
  await legacy(url, 'notifications/initialized', {}, {}, session);
  return session!;
}

const poll = <T,>(get: () => Promise<T>, done: (value: T) => boolean, deadlineMs = 30_000): Promise<T> => pollUntil(get, done, { deadlineMs, what: 'The task' });

describe('tasks in one process', () => {
  let http: HttpServerHandle;
  let definitions: ServerDefinition[];
  let urlOf: (name: string) => string;

  beforeAll(async () => {
    definitions = [
      buildServer({ name: 'strict', version: '1', toolsets: [BoundedToolset], logger: quiet, taskLimits: { maxActivePerCaller: 2, inputTimeoutMs: 400 } }),
      buildServer({ name: 'roomy', version: '1', toolsets: [BoundedToolset], logger: quiet, taskLimits: { maxActive: 3 } }),
      buildServer({ name: 'plain', version: '1', toolsets: [BoundedToolset], logger: quiet }),
    ];
    http = await serveHttp(definitions, { port: 0, drainDelayMs: 0, logger: quiet });
    urlOf = (name) => http.mounts.find((mount) => mount.name === name)!.url;
  });
  afterAll(async () => {
    await http?.close();
    await Promise.all(definitions.map((definition) => definition.tasks!.close(1_000)));
  });

  it('ends a task still running at its TTL as failed, saying its time ran out, and aborts its run', async () => {
    const url = urlOf('roomy');
    const created = await legacy(url, 'tools/call', { name: 'ask', arguments: { label: 'ttl' }, task: { ttl: 1500 } }, { 'x-api-key': 'ttl-key' });
    const { taskId } = (created.answer['result'] as { task: Task }).task;
    const get = async () => (await legacy(url, 'tasks/get', { taskId }, { 'x-api-key': 'ttl-key' })).answer['result'] as Task | undefined;
    // Not waiting to see input_required first: on a loaded machine the 1.5 s can pass before the first poll.
    // Its record lives as long as its TTL, so a poll that comes after it finds the task gone rather than failed.
    const ended = await poll(get, (task) => task === undefined || (task.status !== 'input_required' && task.status !== 'working'));
    if (ended !== undefined) expect(ended).toMatchObject({ status: 'failed', statusMessage: expect.stringMatching(/ran out of time: it did not finish within its time to live \(1500 ms\)/) });
    await poll(async () => aborted.get('ttl'), (reason) => reason !== undefined);
    expect(aborted.get('ttl')).toMatch(/ran out of time/);
  });

  it('ends a task whose question waits past the input timeout as failed, and frees its place under the caller limit', async () => {
    const dispatch = httpDispatch(urlOf('strict'), { 'x-api-key': 'slow-answerer' });
    const created = taskOf(await dispatch({ method: 'tools/call', params: { name: 'ask', arguments: { label: 'unanswered' }, _meta: meta } }));
    const ended = await poll(async () => taskOf(await dispatch({ method: 'tasks/get', params: { taskId: created.taskId, _meta: meta } })), (task) => task.status === 'failed');
    expect(ended.statusMessage).toMatch(/No answer to the task's question came within 400 ms .*TASKS_INPUT_TIMEOUT_MS/);
    expect(aborted.get('unanswered')).toMatch(/No answer/);
  });

  it("refuses a caller's task past its share with a busy error naming the limit, while another caller still gets one", async () => {
    const mine = httpDispatch(urlOf('strict'), { 'x-api-key': 'greedy' });
    const call = (dispatch: typeof mine, label: string) => dispatch({ method: 'tools/call', params: { name: 'ask', arguments: { label }, _meta: meta } });
    expect((await call(mine, 'g1')).kind).toBe('result');
    expect((await call(mine, 'g2')).kind).toBe('result');
    const refused = await call(mine, 'g3');
    expect(refused).toMatchObject({ kind: 'error', error: { code: -32000, message: expect.stringMatching(/Too many unfinished tasks from this caller \(at most 2, TASKS_MAX_PER_CALLER\).*tasks\/cancel/) } });
    expect((await call(httpDispatch(urlOf('strict'), { 'x-api-key': 'someone-else' }), 'other')).kind).toBe('result');
  });

  it('counts anonymous callers by address, and refuses past the server-wide limit', async () => {
    const url = urlOf('roomy');
    const anonymous = httpDispatch(url);
    const results: RawAnswer[] = [];
    // The TTL test may still hold one place; the server keeps at most three unfinished tasks.
    for (let i = 0; i < 4; i++) results.push(await anonymous({ method: 'tools/call', params: { name: 'ask', arguments: { label: `anon-${i}` }, _meta: meta } }));
    expect(results.at(-1)).toMatchObject({ kind: 'error', error: { code: -32000, message: expect.stringMatching(/Too many unfinished tasks on this server \(at most 3, TASKS_MAX\)/) } });
  });

  it("never lists an anonymous stateless caller's tasks to anyone: tasks/list answers empty", async () => {
    const url = urlOf('strict');
    const created = await legacy(url, 'tools/call', { name: 'quick', arguments: { n: 1 }, task: {} });
    expect((created.answer['result'] as { task: Task }).task.taskId).toEqual(expect.any(String));
    const listed = await legacy(url, 'tasks/list', {});
    expect(listed.answer['result']).toEqual({ tasks: [] });
  });

  it("elicits an action other than accept, decline or cancel as an invalid_elicitation_answer, never handing it to the tool", async () => {
    const dispatch = httpDispatch(urlOf('plain'), { 'x-api-key': 'maybe-key' });
    const created = taskOf(await dispatch({ method: 'tools/call', params: { name: 'ask', arguments: { label: 'maybe' }, _meta: meta } }));
    const get = async () => taskOf(await dispatch({ method: 'tasks/get', params: { taskId: created.taskId, _meta: meta } }));
    const asking = await poll(get, (task) => task.status === 'input_required');
    const key = Object.keys(asking.inputRequests!)[0]!;
    await dispatch({ method: 'tasks/update', params: { taskId: created.taskId, inputResponses: { [key]: { action: 'maybe', content: { go: true } } }, _meta: meta } });
    const ended = await poll(get, (task) => task.status === 'completed' || task.status === 'failed');
    expect(ended).toMatchObject({ status: 'completed', result: { isError: true, structuredContent: { error: 'invalid_elicitation_answer', detail: expect.stringMatching(/its action is "maybe"; an answer's action is "accept", "decline" or "cancel"/) } } });
  });

  it('charges a task call to the same rate-limit keys as a direct call: made-up credentials do not escape the limit', async () => {
    const url = urlOf('strict');
    const outcomes: string[] = [];
    for (let i = 0; i < 6; i++) {
      const dispatch = httpDispatch(url, { 'x-api-key': `made-up-${i}` });
      const created = taskOf(await dispatch({ method: 'tools/call', params: { name: 'limited', arguments: { n: i }, _meta: meta } }));
      const ended = await poll(async () => taskOf(await dispatch({ method: 'tasks/get', params: { taskId: created.taskId, _meta: meta } })), (task) => task.status === 'completed');
      outcomes.push(ended.result?.isError ? String(ended.result.structuredContent?.['error']) : 'ran');
    }
    expect(outcomes).toEqual(['ran', 'ran', 'ran', 'rate_limited', 'rate_limited', 'rate_limited']);
  });

  it('stops a task waiting for input at shutdown instead of waiting the whole drain', async () => {
    const own = buildServer({ name: 'own', version: '1', toolsets: [BoundedToolset], logger: quiet });
    const server = await serveHttp(own, { port: 0, drainDelayMs: 0, logger: quiet });
    const dispatch = httpDispatch(server.mounts[0]!.url, { 'x-api-key': 'drain-key' });
    const created = taskOf(await dispatch({ method: 'tools/call', params: { name: 'ask', arguments: { label: 'parked-at-shutdown' }, _meta: meta } }));
    await poll(async () => taskOf(await dispatch({ method: 'tasks/get', params: { taskId: created.taskId, _meta: meta } })), (task) => task.status === 'input_required');
    await server.close();
    const started = Date.now();
    await own.tasks!.close(20_000);
    // Waiting for the task would take the whole 20 s given to close(); a bound any machine meets.
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(aborted.get('parked-at-shutdown')).toMatch(/server shut down while the task waited for input/);
  });

  it('chooses where tasks live once: placing them elsewhere after a task was kept is refused, saying when to choose', async () => {
    const own = buildServer({ name: 'placed', version: '1', toolsets: [BoundedToolset], logger: quiet });
    const server = await serveHttp(own, { port: 0, drainDelayMs: 0, logger: quiet });
    try {
      const dispatch = httpDispatch(server.mounts[0]!.url, { 'x-api-key': 'place-key' });
      const created = taskOf(await dispatch({ method: 'tools/call', params: { name: 'quick', arguments: { n: 0 }, _meta: meta } }));
      expect(() => own.tasks!.placeIn(new MemoryTaskStore())).toThrow("The tasks' store is already in use (MemoryTaskStore): choose where tasks live (REDIS_URL, or buildServer's taskStore) before the server serves.");
      // The task is still where it was kept.
      expect((await poll(async () => taskOf(await dispatch({ method: 'tasks/get', params: { taskId: created.taskId, _meta: meta } })), (task) => task.status === 'completed')).status).toBe('completed');
    } finally {
      await server.close();
      await own.tasks!.close(1_000);
    }
  });
});

describe("a task's call sees what the same call made blocking sees", () => {
  it('knows the 2025-era client that created it (RequestContext.client), as the blocking call does', async () => {
    const definition = buildServer({ name: 'probe', version: '1', toolsets: [BoundedToolset], logger: quiet });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const connection = await definition.connect(serverSide);
    const client = new Client({ name: 'legacy-probe', version: '1' }, { versionNegotiation: { mode: 'legacy' } });
    await client.connect(clientSide);
    const tools = new Map((await client.listTools()).tools.map((tool) => [tool.name, toolDeclarationFromMcpTool(tool)]));
    const session = createTaskSessionFromClient(client as never, { endpointId: 'memory#probe', tools: { currentTool: (name) => tools.get(name) } });
    try {
      expect((await client.callTool({ name: 'who_calls', arguments: {} })).structuredContent).toEqual({ message: 'blocking call', label: 'legacy-probe' });
      const execution = await session.callTool('who_calls', {}, { task: { preference: 'prefer' } });
      expect(execution.kind).toBe('task');
      expect((await execution.settle()).outcome).toMatchObject({ status: 'completed', result: { structuredContent: { message: 'task call', label: 'legacy-probe' } } });
    } finally {
      await session.close();
      await client.close();
      await connection.close();
      await definition.tasks!.close(1_000);
    }
  });
});

describe('tasks of anonymous callers over 2025-era sessions', () => {
  let http: HttpServerHandle;
  let url: string;
  let definition: ServerDefinition;
  beforeAll(async () => {
    definition = buildServer({ name: 'sessions', version: '1', toolsets: [BoundedToolset], logger: quiet });
    http = await serveHttp(definition, { port: 0, drainDelayMs: 0, logger: quiet, sessions: true });
    url = http.mounts[0]!.url;
  });
  afterAll(async () => {
    await http?.close();
    await definition.tasks!.close(1_000);
  });

  it("binds a task to the session that created it: another session neither lists, reads nor answers it", async () => {
    const mine = await openSession(url);
    const stranger = await openSession(url);
    const created = await legacy(url, 'tools/call', { name: 'ask', arguments: { label: 'secret plan' }, task: {} }, {}, mine);
    const { taskId } = (created.answer['result'] as { task: Task }).task;
    const own = await legacy(url, 'tasks/list', {}, {}, mine);
    expect((own.answer['result'] as { tasks: Task[] }).tasks.map((task) => task.taskId)).toEqual([taskId]);
    expect((await legacy(url, 'tasks/list', {}, {}, stranger)).answer['result']).toEqual({ tasks: [] });
    const theirs = await legacy(url, 'tasks/get', { taskId }, {}, stranger);
    const unknown = await legacy(url, 'tasks/get', { taskId: 'no-such-task' }, {}, stranger);
    expect(theirs.answer['error']).toEqual(unknown.answer['error']);
    await legacy(url, 'tasks/cancel', { taskId }, {}, mine);
  });
});

describe('tasks on Redis', () => {
  let redis: TestRedis;
  beforeAll(async () => {
    execFileSync('bash', [join(__dirname, '../../../../tools/redis/ensure-redis.sh')], { stdio: 'inherit' });
    redis = await startTestRedis();
  }, 60_000);
  afterAll(() => redis?.stop());

  it('gives a queue slot back while a task waits for input: two parked tasks on a worker of two leave room for a third', async () => {
    const definition = buildServer({ name: 'queued', version: '1', toolsets: [BoundedToolset], logger: quiet, taskLimits: { inputTimeoutMs: 20_000 } });
    definition.tasks!.placeIn(RedisTaskStore.connect(redis.url, 'test:queued'), new BullTaskQueue(redis.url, { name: 'test-queued', concurrency: 2, logger: quiet }));
    definition.tasks!.work();
    const http = await serveHttp(definition, { port: 0, drainDelayMs: 0, logger: quiet });
    try {
      const dispatch = httpDispatch(http.mounts[0]!.url, { 'x-api-key': 'queue-key' });
      const get = async (taskId: string) => taskOf(await dispatch({ method: 'tasks/get', params: { taskId, _meta: meta } }));
      const parked = await Promise.all(['p1', 'p2'].map(async (label) => taskOf(await dispatch({ method: 'tools/call', params: { name: 'ask', arguments: { label }, _meta: meta } }))));
      for (const task of parked) expect((await poll(() => get(task.taskId), (t) => t.status === 'input_required')).status).toBe('input_required');
      const quick = taskOf(await dispatch({ method: 'tools/call', params: { name: 'quick', arguments: { n: 0 }, _meta: meta } }));
      expect((await poll(() => get(quick.taskId), (t) => t.status === 'completed', 15_000)).status).toBe('completed');
      // A parked task still gets its answer and ends on the process that runs it.
      const asking = await get(parked[0]!.taskId);
      await dispatch({ method: 'tasks/update', params: { taskId: parked[0]!.taskId, inputResponses: { [Object.keys(asking.inputRequests!)[0]!]: { action: 'accept', content: { go: true } } }, _meta: meta } });
      expect(await poll(() => get(parked[0]!.taskId), (t) => t.status === 'completed')).toMatchObject({ result: { structuredContent: { label: 'p1' } } });
      await dispatch({ method: 'tasks/cancel', params: { taskId: parked[1]!.taskId, _meta: meta } });
    } finally {
      await http.close();
      await definition.tasks!.close(5_000);
    }
  });

  it("keeps of a verified caller only what a worker needs to act as it: subject, client, scopes and issuer, never the token's other claims", async () => {
    const issuer = await startTestIssuer();
    const definition = buildServer({ name: 'tokens', version: '1', toolsets: [BoundedToolset], logger: quiet });
    definition.tasks!.placeIn(RedisTaskStore.connect(redis.url, 'test:tokens'));
    const http = await serveHttp(definition, { port: 0, drainDelayMs: 0, logger: quiet, auth: { issuer: issuer.issuer } });
    issuer.audience = http.mounts[0]!.url;
    try {
      const token = await issuer.mint({ subject: 'ada', clientId: 'app', claims: { email: 'ada@example.com', name: 'Ada Lovelace' } });
      const dispatch = httpDispatch(http.mounts[0]!.url, { authorization: `Bearer ${token}` });
      const created = taskOf(await dispatch({ method: 'tools/call', params: { name: 'ask', arguments: { label: 'claims' }, _meta: meta } }));
      await poll(async () => taskOf(await dispatch({ method: 'tasks/get', params: { taskId: created.taskId, _meta: meta } })), (task) => task.status === 'input_required');
      // What anyone who can read Redis sees while the task runs.
      const { Redis } = await import('ioredis');
      const reader = new Redis(redis.url);
      const stored = JSON.stringify(await reader.hgetall(`test:tokens:task:${created.taskId}`));
      await reader.quit();
      expect(stored).toContain('ada');
      expect(stored).toMatch(/iss/);
      expect(stored).not.toContain('ada@example.com');
      expect(stored).not.toContain('Lovelace');
      await dispatch({ method: 'tasks/cancel', params: { taskId: created.taskId, _meta: meta } });
    } finally {
      await http.close();
      await definition.tasks!.close(5_000);
      await issuer.close();
    }
  });
});
