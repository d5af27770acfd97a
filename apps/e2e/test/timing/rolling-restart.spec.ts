import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { httpDispatch, modernMeta, pollUntil, startTestRedis, type RawAnswer, type TestRedis } from '@toolsets/testing';
import { accountOf, httpClient, type AnyClient, type Era } from '../support/clients';
import { freePort, startNginx, type Nginx } from '../support/nginx';
import { appMain, startServerProcess, workspaceRoot, type ServerProcess } from '../support/server-process';

const REPLICAS = 3;
const CLIENTS = 20;
/** Tasks created through the balancer while the replicas restart, by TASK_CALLERS callers. */
const TASKS = 200;
const TASK_CALLERS = 20;
/** Rolling restarts of every replica in one run (ROLLING_ROUNDS=10 measures a rare failure's rate). */
const ROUNDS = Number(process.env['ROLLING_ROUNDS'] ?? 1);

interface Tally {
  ok: number;
  failed: number;
  crossed: number;
  failures: { at: number; error: string }[];
}

type Task = { taskId: string; status: string; result?: { structuredContent?: { total: number; label?: string } } };

/**
 * Three replicas of the demo app behind nginx (default retry policy), sharing tasks through Redis.
 * Clients of both eras each call whoami with its own token without pause, while 20 more create
 * 200 tasks (the reports' idempotent tally) and poll them; every replica is restarted in turn with
 * SIGTERM, then one is killed outright. No call may fail, no caller may get another caller's
 * answer, and no task may be lost: each ends completed, with the sum its caller asked for.
 */
describe('a rolling restart behind nginx', () => {
  const ports: number[] = [];
  const replicas: ServerProcess[] = [];
  let nginx: Nginx;
  let redis: TestRedis;

  const start = (port: number) => startServerProcess(appMain('demo-server'), { PORT: String(port), DRAIN_DELAY_MS: '1000', REDIS_URL: redis.url, TASKS_LOCK_MS: '2000' });

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

  it('loses no call or task and crosses no callers while every replica restarts, and keeps answering through a SIGKILL', async () => {
    const tasks = taskCallers(`${nginx.origin}/reports/mcp`);
    const tally: Tally = { ok: 0, failed: 0, crossed: 0, failures: [] };
    const clients: { client: AnyClient; token: string }[] = [];
    for (let i = 0; i < CLIENTS; i++) {
      const token = `rolling-${i}`;
      clients.push({ client: await httpClient((i % 2 === 0 ? 'modern' : 'legacy') as Era, `${nginx.origin}/credential-demo/mcp`, { 'x-demo-token': token }), token });
    }
    let running = true;
    const loops = clients.map(async ({ client, token }) => {
      const expected = accountOf(token);
      while (running) {
        try {
          const result = await client.callTool({ name: 'whoami', arguments: {} });
          if ((result['structuredContent'] as { account?: string } | undefined)?.account === expected) tally.ok++;
          else tally.crossed++;
        } catch (error) {
          tally.failed++;
          tally.failures.push({ at: Date.now(), error: (error as Error).message.slice(0, 120) });
        }
      }
    });
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

    const began = Date.now();
    const events: string[] = [];
    const mark = (event: string) => events.push(`${Date.now() - began} ms: ${event}`);
    await pause(1_000);
    // Drains that closed their listener without the balancer holding idle connections (they log it).
    let closedWithoutIdle = 0;
    for (let step = 0; step < REPLICAS * ROUNDS; step++) {
      const i = step % REPLICAS;
      mark(`SIGTERM replica ${i}`);
      replicas[i].child.kill('SIGTERM');
      expect(await replicas[i].exited).toBe(0);
      mark(`replica ${i} exited`);
      if (replicas[i].stderr().includes('stopped accepting connections without idle ones')) {
        closedWithoutIdle++;
        mark(`replica ${i} stopped accepting without idle connections in the balancer`);
      }
      replicas[i] = await start(ports[i]);
      mark(`replica ${i} healthy again`);
      await pause(1_500);
    }
    const rolling = { ...tally, failures: [...tally.failures] };

    // A replica killed outright: the calls it held may fail, but the balancer routes around it at
    // once, so calls go on succeeding on the others and none fails after the first moments.
    const killedAt = Date.now();
    const okBeforeKill = tally.ok;
    replicas[0].child.kill('SIGKILL');
    await replicas[0].exited;
    await pause(3_000);
    const killFailures = tally.failures.filter((f) => f.at >= killedAt);
    const okWhileKilled = tally.ok - okBeforeKill;
    replicas[0] = await start(ports[0]);
    await pause(500);
    running = false;
    await Promise.all(loops);
    await Promise.all(clients.map(({ client }) => client.close().catch(() => undefined)));
    const ended = await tasks.ended;

    const recovery = killFailures.length ? Math.max(...killFailures.map((f) => f.at)) - killedAt : 0;
    console.log(
      [
        `rolling restart of ${REPLICAS} replicas${ROUNDS > 1 ? ` (${ROUNDS} rounds)` : ''}: ${rolling.ok} calls answered, ${rolling.failed} failed, ${rolling.crossed} crossed callers (${CLIENTS} clients, both eras)`,
        `listener closed with idle connections in the balancer: ${REPLICAS * ROUNDS - closedWithoutIdle} of ${REPLICAS * ROUNDS} drains`,
        `SIGKILL of one replica: ${killFailures.length} calls failed; the last failure ${recovery} ms after the kill`,
        `tasks: ${ended.results.length} created (${ended.failedCreations} creations failed), ended ${JSON.stringify(ended.byStatus)}, ${ended.wrong.length} results not the caller's own; ${ended.errors.length} task requests failed${ended.errors.length ? `: ${[...new Set(ended.errors)].slice(0, 3).join(' | ')}` : ''}`,
      ].join('\n'),
    );
    if (rolling.failed) {
      const failures = rolling.failures.map((f) => `${f.at - began} ms: ${f.error.split('\n')[0]}`);
      console.log([...events, ...failures].sort((a, b) => parseInt(a) - parseInt(b)).join('\n') + `\nnginx's error log:\n${nginx.errors()}`);
    }
    expect(rolling.failures.map((f) => f.error)).toEqual([]);
    expect(rolling.crossed).toBe(0);
    expect(rolling.ok).toBeGreaterThan(500);
    expect(tally.crossed).toBe(0);
    expect(okWhileKilled).toBeGreaterThan(100);
    expect(killFailures.filter((f) => f.at - killedAt > 1_000).map((f) => f.error)).toEqual([]);
    expect(ended.failedCreations).toBe(0);
    expect(ended.results).toHaveLength(TASKS);
    expect(ended.byStatus).toEqual({ completed: TASKS });
    expect(ended.wrong).toEqual([]);
  }, 180_000 * ROUNDS);
});

/**
 * TASK_CALLERS callers, each creating its share of TASKS tasks about every 900 ms (so the restarts
 * and the SIGKILL find tasks running), then polling them through the balancer until each has ended.
 */
function taskCallers(url: string) {
  const meta = modernMeta();
  const errors: string[] = [];
  let failedCreations = 0;
  // Each caller its own reports key: its tasks are its own, and counted against its own share.
  const ask = async (caller: number, request: unknown): Promise<Record<string, unknown> | undefined> => {
    const answer: RawAnswer = await httpDispatch(url, { 'x-reports-key': `rolling-caller-${caller}` })(request).catch((error: Error) => ({ kind: 'error', error: { code: 0, message: error.message } }) as RawAnswer);
    if (answer.kind === 'result') return answer.result;
    errors.push(answer.error.message.slice(0, 160));
    return undefined;
  };
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const callers = Array.from({ length: TASK_CALLERS }, async (_, caller) => {
    const mine: { label: string; items: number; taskId: string }[] = [];
    for (let n = 0; n < TASKS / TASK_CALLERS; n++) {
      const label = `caller-${caller}-task-${n}`;
      const items = 100 + ((caller * 7 + n * 13) % 100);
      const task = (await ask(caller, { method: 'tools/call', params: { name: 'tally', arguments: { items, label }, _meta: meta } })) as Task | undefined;
      if (task?.taskId) mine.push({ label, items, taskId: task.taskId });
      else failedCreations++;
      await pause(900);
    }
    const ended = new Map<string, Task>();
    const stillOpen = async () => {
      for (const task of mine.filter((t) => !ended.has(t.taskId))) {
        const seen = (await ask(caller, { method: 'tasks/get', params: { taskId: task.taskId, _meta: meta } })) as Task | undefined;
        if (seen && ['completed', 'failed', 'cancelled'].includes(seen.status)) ended.set(task.taskId, seen);
      }
      return mine.filter((t) => !ended.has(t.taskId)).map((t) => t.label);
    };
    // A task that never ends fails here, naming it, instead of at Jest's timeout.
    await pollUntil(stillOpen, (open) => open.length === 0, { deadlineMs: 120_000, everyMs: 300, what: `caller ${caller}'s open tasks` });
    return mine.map((task) => ({ ...task, end: ended.get(task.taskId)! }));
  });
  return {
    ended: Promise.all(callers).then((all) => {
      const results = all.flat();
      const byStatus = results.reduce<Record<string, number>>((counts, task) => ({ ...counts, [task.end.status]: (counts[task.end.status] ?? 0) + 1 }), {});
      const wrong = results.filter((task) => task.end.status === 'completed' && (task.end.result?.structuredContent?.label !== task.label || task.end.result?.structuredContent?.total !== (task.items * (task.items + 1)) / 2));
      return { results, byStatus, wrong, errors, failedCreations };
    }),
  };
}
