import 'reflect-metadata';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { buildServer, Field, RedisTaskStore, Result, serveHttp, TaskContext, Tool, ToolResult, Toolset, type HttpServerHandle, type Logger, type ServerDefinition } from '@toolsets/core';
import { httpDispatch, MODERN_REVISION, modernMeta, pollUntil, resultOf, startTestRedis, type TestRedis } from '../../src';

class GoForm {
  @Field()
  go!: boolean;
}

@Result({ description: 'What the job did.' })
class JobDone extends ToolResult {}

@Toolset({ name: 'jobs', credentialHeaders: ['x-jobs-key'] })
class JobsToolset {
  constructor(private readonly task: TaskContext) {}

  @Tool({ description: 'Asks before it finishes.', returns: JobDone, elicits: [GoForm], task: 'optional' })
  async job(): Promise<JobDone> {
    const answer = await this.task.requireInput(GoForm, 'Go?');
    return { message: answer.action === 'accept' && answer.content.go ? 'went' : 'stayed' };
  }
}

const quiet: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };
const meta = modernMeta();

/** A message of a listen stream: the acknowledgement, a task notification (its params the task, as tasks/get shows it) or the final result. */
interface ListenMessage {
  jsonrpc: '2.0';
  id?: string;
  method?: string;
  result?: Record<string, unknown>;
  params: { taskId: string; status: string; notifications: { taskIds: string[] }; _meta: Record<string, unknown>; [key: string]: unknown };
}

/** A `subscriptions/listen` for `taskIds`, read message by message as the stream delivers them. */
async function listen(url: string, key: string, taskIds: string[], capabilities: Record<string, unknown> = meta['io.modelcontextprotocol/clientCapabilities'] as Record<string, unknown>) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': MODERN_REVISION, 'mcp-method': 'subscriptions/listen', 'x-jobs-key': key },
    body: JSON.stringify({ jsonrpc: '2.0', id: 'watch-1', method: 'subscriptions/listen', params: { notifications: { taskIds }, _meta: { ...meta, 'io.modelcontextprotocol/clientCapabilities': capabilities } } }),
  });
  const messages: ListenMessage[] = [];
  let ended = false;
  if (response.headers.get('content-type')?.startsWith('text/event-stream')) {
    void (async () => {
      let buffer = '';
      const decoder = new TextDecoder();
      for await (const chunk of response.body!) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const data = buffer.slice(0, cut).split('\n').find((line) => line.startsWith('data: '));
          buffer = buffer.slice(cut + 2);
          if (data) messages.push(JSON.parse(data.slice(6)) as ListenMessage);
        }
      }
      ended = true;
    })();
  }
  return { response, messages, ended: () => ended };
}

/** Both eras' owners are hashes of the caller: a job is made with one key, and only that key's listens follow it. */
async function jobFor(url: string, key: string): Promise<string> {
  return resultOf(await httpDispatch(url, { 'x-jobs-key': key })({ method: 'tools/call', params: { name: 'job', arguments: {}, _meta: meta } }))['taskId'] as string;
}

async function answer(url: string, key: string, taskId: string): Promise<void> {
  const send = httpDispatch(url, { 'x-jobs-key': key });
  const asking = await pollUntil(async () => resultOf(await send({ method: 'tasks/get', params: { taskId, _meta: meta } })), (task) => task['status'] === 'input_required', { what: 'the job asking' });
  resultOf(await send({ method: 'tasks/update', params: { taskId, inputResponses: { [Object.keys(asking['inputRequests'] as object)[0]!]: { action: 'accept', content: { go: true } } }, _meta: meta } }));
}

describe('task status notifications (subscriptions/listen with taskIds)', () => {
  let definition: ServerDefinition;
  let handle: HttpServerHandle;
  let url: string;
  beforeAll(async () => {
    definition = buildServer({ name: 'jobs', version: '1', toolsets: [JobsToolset], logger: quiet });
    handle = await serveHttp(definition, { port: 0, drainDelayMs: 0, logger: quiet });
    url = handle.mounts[0]!.url;
  });
  afterAll(() => handle.close());

  it("follows the caller's own tasks only, sends each whole as tasks/get shows it now and at every change, and ends when they have ended", async () => {
    const mine = await jobFor(url, 'key-a');
    const theirs = await jobFor(url, 'key-b');
    const watch = await listen(url, 'key-a', [mine, theirs, 'no-such-task']);
    expect(watch.response.status).toBe(200);
    await pollUntil(async () => watch.messages.length, (count) => count >= 2, { what: 'the acknowledgement and the current state' });
    expect(watch.messages[0]).toEqual({ jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { notifications: { taskIds: [mine] }, _meta: { 'io.modelcontextprotocol/subscriptionId': 'watch-1' } } });
    await answer(url, 'key-a', mine);
    await pollUntil(async () => watch.ended(), (ended) => ended, { what: 'the end of the stream' });
    const tasks = watch.messages.filter((message) => message['method'] === 'notifications/tasks').map((message) => message['params']);
    // Every notification is the caller's task, stamped with the subscription; the last one is what tasks/get says at the end.
    expect(new Set(tasks.map((task) => task.taskId))).toEqual(new Set([mine]));
    expect(tasks.every((task) => task._meta['io.modelcontextprotocol/subscriptionId'] === 'watch-1')).toBe(true);
    expect(tasks.map((task) => task.status)).toContain('input_required');
    const final = resultOf(await httpDispatch(url, { 'x-jobs-key': 'key-a' })({ method: 'tasks/get', params: { taskId: mine, _meta: meta } }));
    const { resultType: _type, _meta: _getMeta, ...got } = final;
    const { _meta: _noteMeta, ...last } = tasks.at(-1)!;
    expect(last).toEqual(got);
    expect(last).toMatchObject({ status: 'completed', result: { structuredContent: { message: 'went' } } });
    expect(watch.messages.at(-1)).toEqual({ jsonrpc: '2.0', id: 'watch-1', result: { resultType: 'complete', _meta: { 'io.modelcontextprotocol/subscriptionId': 'watch-1' } } });
    await answer(url, 'key-b', theirs);
  });

  it('refuses a client that did not declare the tasks extension with -32021 and HTTP 400', async () => {
    const watch = await listen(url, 'key-a', ['anything'], {});
    expect(watch.response.status).toBe(400);
    expect(await watch.response.json()).toMatchObject({ id: 'watch-1', error: { code: -32021, data: { requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } } } });
  });
});

describe('task status notifications across replicas (Redis)', () => {
  let redis: TestRedis;
  beforeAll(async () => {
    execFileSync('bash', [join(__dirname, '../../../../tools/redis/ensure-redis.sh')], { stdio: 'inherit' });
    redis = await startTestRedis();
  }, 60_000);
  afterAll(() => redis?.stop());

  it('tells a listener on replica B when a task running on replica A changes and ends', async () => {
    const replicas = await Promise.all(
      ['a', 'b'].map(async () => {
        const definition = buildServer({ name: 'jobs', version: '1', toolsets: [JobsToolset], logger: quiet });
        definition.tasks!.placeIn(RedisTaskStore.connect(redis.url, 'test:listen'));
        return { definition, handle: await serveHttp(definition, { port: 0, drainDelayMs: 0, logger: quiet }) };
      }),
    );
    try {
      const [a, b] = replicas.map((replica) => replica.handle.mounts[0]!.url) as [string, string];
      const taskId = await jobFor(a, 'key-r');
      const watch = await listen(b, 'key-r', [taskId]);
      await pollUntil(async () => watch.messages.length, (count) => count >= 2, { what: "replica B's acknowledgement" });
      expect(watch.messages[0]!['params'].notifications.taskIds).toEqual([taskId]);
      await answer(a, 'key-r', taskId);
      await pollUntil(async () => watch.ended(), (ended) => ended, { what: "the end of replica B's stream" });
      const last = watch.messages.filter((message) => message['method'] === 'notifications/tasks').at(-1)!['params'];
      expect(last).toMatchObject({ taskId, status: 'completed', result: { structuredContent: { message: 'went' } } });
    } finally {
      for (const { definition, handle } of replicas) {
        await handle.close();
        await definition.tasks!.close(5_000);
      }
    }
  });
});
