import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { httpDispatch, modernMeta, startTestRedis, type RawAnswer, type TestRedis } from '@toolsets/testing';
import { freePort, startNginx, type Nginx } from '../support/nginx';
import { appMain, startServerProcess, workspaceRoot, type ServerProcess } from '../support/server-process';

const REPLICAS = 3;
const TASKS = 200;
const CALLERS = 20;

type Task = { taskId: string; status: string; result?: { structuredContent?: { items: number; total: number; label?: string; worker: number } } };

/**
 * The demo's reports on three replicas sharing Redis, behind nginx: 200 tasks created and polled
 * through the balancer while every replica restarts in turn (SIGTERM), then one is killed outright.
 * No task may be lost, each must end, and each result must be the one its caller asked for.
 */
describe('a rolling restart of replicas running tasks on Redis', () => {
  const ports: number[] = [];
  const replicas: ServerProcess[] = [];
  let nginx: Nginx;
  let redis: TestRedis;

  const start = (port: number) => startServerProcess(appMain('demo-server'), { PORT: String(port), REDIS_URL: redis.url, DRAIN_DELAY_MS: '1000', TASKS_LOCK_MS: '2000' });

  beforeAll(async () => {
    execFileSync('bash', [join(workspaceRoot, 'tools/redis/ensure-redis.sh')], { stdio: 'inherit' });
    redis = await startTestRedis();
    for (let i = 0; i < REPLICAS; i++) ports.push(await freePort());
    for (const port of ports) replicas.push(await start(port));
    nginx = await startNginx(ports);
  }, 120_000);
  afterAll(async () => {
    await nginx?.stop();
    await Promise.all(replicas.map((replica) => replica.stop().catch(() => undefined)));
    await redis?.stop();
  });

  it('loses no task, ends every one, and gives each caller its own result, through restarts and a SIGKILL', async () => {
    const send = httpDispatch(`${nginx.origin}/reports/mcp`);
    const meta = modernMeta();
    const errors: string[] = [];
    const ask = async (request: unknown): Promise<Record<string, unknown> | undefined> => {
      const answer: RawAnswer = await send(request).catch((error: Error) => ({ kind: 'error', error: { code: 0, message: error.message } }) as RawAnswer);
      if (answer.kind === 'error') {
        errors.push(answer.error.message.slice(0, 160));
        return undefined;
      }
      return answer.result;
    };
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

    // Each caller creates its share of the tasks over about nine seconds (so the SIGKILL below finds tasks running), then polls them to the end.
    const created: { caller: number; label: string; items: number; taskId: string }[] = [];
    let failedCreations = 0;
    const callers = Array.from({ length: CALLERS }, async (_, caller) => {
      const mine: typeof created = [];
      for (let n = 0; n < TASKS / CALLERS; n++) {
        const label = `caller-${caller}-task-${n}`;
        const items = 100 + ((caller * 7 + n * 13) % 100);
        const task = (await ask({ method: 'tools/call', params: { name: 'tally', arguments: { items, label }, _meta: meta } })) as Task | undefined;
        if (task?.taskId) mine.push({ caller, label, items, taskId: task.taskId });
        else failedCreations++;
        await pause(900);
      }
      created.push(...mine);
      const ended = new Map<string, Task>();
      while (ended.size < mine.length) {
        for (const task of mine.filter((t) => !ended.has(t.taskId))) {
          const seen = (await ask({ method: 'tasks/get', params: { taskId: task.taskId, _meta: meta } })) as Task | undefined;
          if (seen && ['completed', 'failed', 'cancelled'].includes(seen.status)) ended.set(task.taskId, seen);
        }
        await pause(300);
      }
      return mine.map((task) => ({ ...task, end: ended.get(task.taskId)! }));
    });

    await pause(1_500);
    for (let i = 0; i < REPLICAS; i++) {
      replicas[i].child.kill('SIGTERM');
      expect(await replicas[i].exited).toBe(0);
      replicas[i] = await start(ports[i]);
      await pause(1_000);
    }
    // One replica killed outright mid-run: its tasks are taken up by another worker once its lock lapses.
    replicas[1].child.kill('SIGKILL');
    await replicas[1].exited;
    replicas[1] = await start(ports[1]);

    const results = (await Promise.all(callers)).flat();
    const byStatus = results.reduce<Record<string, number>>((counts, task) => ({ ...counts, [task.end.status]: (counts[task.end.status] ?? 0) + 1 }), {});
    const wrong = results.filter((task) => task.end.status === 'completed' && (task.end.result?.structuredContent?.label !== task.label || task.end.result?.structuredContent?.total !== (task.items * (task.items + 1)) / 2));
    console.log(`rolling restart of ${REPLICAS} replicas on Redis, then a SIGKILL: ${results.length} tasks created (${failedCreations} creations failed), ended ${JSON.stringify(byStatus)}, ${wrong.length} results not the caller's own; ${errors.length} requests failed${errors.length ? `: ${[...new Set(errors)].slice(0, 3).join(' | ')}` : ''}`);

    expect(failedCreations).toBe(0);
    expect(results).toHaveLength(TASKS);
    expect(byStatus).toEqual({ completed: TASKS });
    expect(wrong).toEqual([]);
  }, 120_000);
});
