import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { join } from 'node:path';
import { httpDispatch, modernMeta, pollUntil, startTestRedis, waitUntil, type RawAnswer, type TestRedis } from '@toolsets/testing';
import { httpClient } from './support/clients';
import { appMain, startServerProcess, workspaceRoot, type ServerProcess } from './support/server-process';

/** The task record `tasks/get` answered with, or the error. */
type Task = { taskId: string; status: string; statusMessage?: string; inputRequests?: Record<string, { method: string; params: { message: string } }>; result?: { structuredContent?: Record<string, unknown>; isError?: boolean }; error?: { code: number; message: string } };

const meta = modernMeta();
/** The demo's reports belong to the key their caller sends. */
const REPORTS_KEY = { 'x-reports-key': 'replicas-test' };
const taskOf = (answer: RawAnswer): Task => {
  if (answer.kind === 'error') throw new Error(`${answer.error.code} ${answer.error.message}`);
  return answer.result as unknown as Task;
};

/** A `--worker` process of the demo app: it serves nothing, it runs tasks from the queue. */
async function startWorker(env: Record<string, string>): Promise<{ child: ChildProcess; pid: number; stop(signal?: NodeJS.Signals): Promise<void> }> {
  const child = spawn(process.execPath, [appMain('demo-server'), '--worker'], { cwd: workspaceRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stderr!.on('data', (chunk) => (log += chunk));
  let exited = false;
  const gone = new Promise<void>((resolve) => child.once('exit', () => ((exited = true), resolve())));
  await waitUntil(() => log.includes('"running tasks only"'), { deadlineMs: 30_000, givenUp: () => exited, failure: () => `the worker did not start:\n${log}` });
  return {
    child,
    pid: child.pid!,
    stop: async (signal = 'SIGTERM') => {
      if (!exited) child.kill(signal);
      // A worker drains its tasks on SIGTERM; one that has not exited in 15 s is killed.
      const kill = setTimeout(() => !exited && child.kill('SIGKILL'), 15_000);
      await gone;
      clearTimeout(kill);
    },
  };
}

// One redis-server for the file: each describe has a database of its own in it.
let redis: TestRedis;
beforeAll(async () => {
  execFileSync('bash', [join(workspaceRoot, 'tools/redis/ensure-redis.sh')], { stdio: 'inherit' });
  redis = await startTestRedis();
}, 60_000);
afterAll(() => redis?.stop());

/**
 * The demo app's reports on Redis: every replica answers for every task, whichever created it and
 * whichever worker runs it. A real redis-server on loopback, the built app as separate processes.
 */
describe('tasks shared by replicas through Redis', () => {
  let a: ServerProcess;
  let b: ServerProcess;
  let c: ServerProcess;

  beforeAll(async () => {
    [a, b, c] = await Promise.all([0, 1, 2].map(() => startServerProcess(appMain('demo-server'), { REDIS_URL: `${redis.url}/1`, DRAIN_DELAY_MS: '0' })));
  }, 60_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop(), c?.stop()]);
  });

  const reports = (replica: ServerProcess) => httpDispatch(`${replica.origin}/reports/mcp`, REPORTS_KEY);
  const get = async (replica: ServerProcess, taskId: string) => taskOf(await reports(replica)({ method: 'tasks/get', params: { taskId, _meta: meta } }));
  const poll = (replica: ServerProcess, taskId: string, done: (task: Task) => boolean): Promise<Task> => pollUntil(() => get(replica, taskId), done, { deadlineMs: 30_000, everyMs: 50, what: `task ${taskId}` });

  it('creates a task on one replica; another shows it, takes the answer to its question, and either gives the typed result', async () => {
    const created = taskOf(await reports(a)({ method: 'tools/call', params: { name: 'render_report', arguments: { title: 'Q3', pages: 2 }, _meta: meta } }));
    expect(created).toMatchObject({ resultType: 'task', status: 'working' });
    const asking = await poll(b, created.taskId, (task) => task.status === 'input_required');
    const [key, request] = Object.entries(asking.inputRequests!)[0];
    expect(request).toMatchObject({ method: 'elicitation/create', params: { message: 'Publish "Q3" (2 pages)?' } });
    expect(await reports(b)({ method: 'tasks/update', params: { taskId: created.taskId, inputResponses: { [key]: { action: 'accept', content: { publish: true, channel: 'archive' } } }, _meta: meta } })).toMatchObject({ kind: 'result' });
    const done = await poll(a, created.taskId, (task) => task.status === 'completed');
    expect(done.result).toMatchObject({ structuredContent: { message: 'Rendered "Q3" (2 pages) and published it by archive.', title: 'Q3', pages: 2, publishedTo: 'archive' } });
    expect(await get(b, created.taskId)).toEqual({ ...done, _meta: expect.anything() });
  });

  it('cancels on one replica a task another created; it stays cancelled', async () => {
    const created = taskOf(await reports(b)({ method: 'tools/call', params: { name: 'tally', arguments: { items: 1000 }, _meta: meta } }));
    expect(await reports(a)({ method: 'tasks/cancel', params: { taskId: created.taskId, _meta: meta } })).toMatchObject({ kind: 'result' });
    // Another replica sees it once the shared store has it, whenever that is on this machine.
    expect(await poll(b, created.taskId, (task) => task.status !== 'working')).toMatchObject({ status: 'cancelled', statusMessage: 'Cancelled by the client.' });
  });

  it('admits exactly the capacity of a shared rate limit across three replicas', async () => {
    // From full buckets: the calls above took from the same caller's.
    const direct = new Redis(`${redis.url}/1`);
    const keys = await direct.keys('toolsets:rate-limit:*');
    if (keys.length > 0) await direct.del(...keys);
    await direct.quit();
    // 60 blocking calls at once, 20 to each replica; render_report allows 20 per caller, then one a minute.
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => reports([a, b, c][i % 3])({ method: 'tools/call', params: { name: 'render_report', arguments: { title: `r${i}`, pages: 1 }, _meta: modernMeta({ tasks: false }) } })),
    );
    const refused = answers.filter((answer) => answer.kind === 'result' && (answer.result['structuredContent'] as { error?: string } | undefined)?.error === 'rate_limited');
    expect({ admitted: answers.length - refused.length, refused: refused.length }).toEqual({ admitted: 20, refused: 40 });
  });

  it("serves one replica's cached answer from the others", async () => {
    const blocking = (replica: ServerProcess) => reports(replica)({ method: 'tools/call', params: { name: 'tally', arguments: { items: 77 }, _meta: modernMeta({ tasks: false }) } });
    const first = await blocking(a);
    const computedBy = (first as unknown as { result: { structuredContent: { worker: number } } }).result.structuredContent.worker;
    expect(computedBy).toBe(a.child.pid);
    for (const replica of [b, c]) expect(await blocking(replica)).toMatchObject({ kind: 'result', result: { structuredContent: { total: 3003, worker: computedBy } } });
  });

  it('answers a client that did not declare tasks with the blocking result, on any replica', async () => {
    const client = await httpClient('modern', `${b.origin}/reports/mcp`);
    expect((await client.callTool({ name: 'tally', arguments: { items: 10 } })).structuredContent).toMatchObject({ total: 55 });
    await client.close();
  });
});

describe('a worker that dies mid-task', () => {
  let serving: ServerProcess;
  const url = () => `${redis.url}/2`;

  beforeAll(async () => {
    // This replica only serves and queues: the tasks run on --worker processes the test starts and kills.
    serving = await startServerProcess(appMain('demo-server'), { REDIS_URL: url(), TASKS_WORKER: 'off', DRAIN_DELAY_MS: '0' });
  }, 60_000);
  afterAll(async () => {
    await serving?.stop();
  });

  const workerEnv = () => ({ REDIS_URL: url(), TASKS_LOCK_MS: '1000' });
  const call = (name: string, args: Record<string, unknown>) => httpDispatch(`${serving.origin}/reports/mcp`, REPORTS_KEY)({ method: 'tools/call', params: { name, arguments: args, _meta: meta } });
  const get = async (taskId: string) => taskOf(await httpDispatch(`${serving.origin}/reports/mcp`, REPORTS_KEY)({ method: 'tasks/get', params: { taskId, _meta: meta } }));
  const poll = (taskId: string, done: (task: Task) => boolean): Promise<Task> => pollUntil(() => get(taskId), done, { deadlineMs: 30_000, everyMs: 50, what: `task ${taskId}` });

  it('runs an idempotent tool again on another worker, and ends a tool that is not idempotent failed, saying why', async () => {
    const first = await startWorker(workerEnv());
    let second: Awaited<ReturnType<typeof startWorker>> | undefined;
    try {
      const tally = taskOf(await call('tally', { items: 300 }));
      const report = taskOf(await call('render_report', { title: 'Annual', pages: 30 }));
      // Both running on the first worker (tally 3 s, the report 3 s of pages), then it dies without a word.
      // Any page from the second on will do: a loaded machine's polls can miss one page's 100 ms.
      await poll(report.taskId, (task) => task.status === 'working' && Number(/^(\d+)\/30:/.exec(task.statusMessage ?? '')?.[1] ?? 0) >= 2);
      expect((await get(tally.taskId)).status).toBe('working');
      await first.stop('SIGKILL');

      second = await startWorker(workerEnv());
      const rerun = await poll(tally.taskId, (task) => task.status !== 'working');
      expect(rerun).toMatchObject({ status: 'completed', result: { structuredContent: { items: 300, total: 45150, worker: second.pid } } });
      const failed = await poll(report.taskId, (task) => task.status !== 'working');
      expect(failed).toMatchObject({
        status: 'failed',
        statusMessage: "The worker running it stopped before it finished, and 'render_report' is not declared idempotent, so it was not run again.",
        error: { code: -32603 },
      });
    } finally {
      // Never leave a worker behind: a live child keeps Jest from exiting.
      await first.stop('SIGKILL');
      await second?.stop();
    }
  }, 60_000);
});
