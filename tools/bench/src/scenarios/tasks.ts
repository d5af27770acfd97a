import 'reflect-metadata';
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { IsInt, Max, Min } from 'class-validator';
import { BullTaskQueue, buildServer, Field, RedisTaskStore, serveHttp, Tool, ToolResult, Toolset, type HttpServerHandle, type ServerDefinition } from '@toolsets/core';
import { httpDispatch, modernMeta, startTestRedis, type RawDispatch } from '@toolsets/testing';
import { fmt, judge, type ScenarioResult } from '../harness/report';

const workspaceRoot = resolve(__dirname, '../../../..');
const CALLS = 200;
const ROUNDS = 3;
const BURST = 500;
const IN_FLIGHT = 50;

class SquareArgs {
  @Field({ description: 'A whole number.' })
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  n!: number;
}

class SquareResult extends ToolResult {
  @Field({ description: 'n squared.' })
  square!: number;
}

@Toolset({ name: 'bench_tasks' })
class BenchTasksToolset {
  @Tool({ description: 'Squares a number, as a task for clients that support tasks.', args: SquareArgs, returns: SquareResult, task: { support: 'optional', pollIntervalMs: 10 } })
  square({ n }: SquareArgs): SquareResult {
    return { message: `${n}² = ${n * n}`, square: n * n };
  }
}

const quiet = { info: () => undefined, warn: () => undefined, error: console.error };
// Every requester here is one anonymous caller: the per-caller bound (32 by default) would refuse the burst's 50 in flight.
const definition = (options: Partial<Parameters<typeof buildServer>[0]> = {}): ServerDefinition =>
  buildServer({ name: 'bench-tasks', version: '1', toolsets: [BenchTasksToolset], logger: quiet, telemetry: false, taskLimits: { maxActivePerCaller: 10 * IN_FLIGHT }, ...options });

const direct = (send: RawDispatch, n: number) => send({ method: 'tools/call', params: { name: 'square', arguments: { n }, _meta: modernMeta({ tasks: false }) } });

/** The tasks/get requests each task took to see its end, per dispatch. */
const polls = new Map<RawDispatch, number[]>();

/** A task round trip as a requester makes it: the call, then tasks/get at once and every 2 ms until it has ended. */
async function asTask(send: RawDispatch, n: number): Promise<number> {
  return (await awaitEnd(send, await createTask(send, n))).square;
}

async function createTask(send: RawDispatch, n: number): Promise<string> {
  const created = await send({ method: 'tools/call', params: { name: 'square', arguments: { n }, _meta: modernMeta() } });
  if (created.kind === 'error') throw new Error(created.error.message);
  return created.result['taskId'] as string;
}

/** tasks/get at once and every 2 ms until the task has completed; counts the requests in `polls`. */
async function awaitEnd(send: RawDispatch, taskId: string): Promise<{ square: number }> {
  for (let count = 1; ; count++) {
    const got = await send({ method: 'tasks/get', params: { taskId, _meta: modernMeta() } });
    if (got.kind === 'error') throw new Error(got.error.message);
    if (got.result['status'] === 'completed') {
      polls.get(send)?.push(count);
      return (got.result['result'] as { structuredContent: { square: number } }).structuredContent;
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** One tasks/get of a task that has ended: what each poll costs, apart from how many there are. */
async function pollCost(send: RawDispatch): Promise<number> {
  const taskId = await createTask(send, 3);
  await awaitEnd(send, taskId);
  const times: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const started = performance.now();
    await send({ method: 'tasks/get', params: { taskId, _meta: modernMeta() } });
    times.push(performance.now() - started);
  }
  return median(times);
}

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function latencies(run: (n: number) => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const started = performance.now();
    await run(i);
    times.push(performance.now() - started);
  }
  return times;
}

/** Tasks completed per second: BURST tasks, IN_FLIGHT at a time, each created and polled to its end. */
async function throughput(send: RawDispatch): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < BURST) await asTask(send, next++);
    }),
  );
  return BURST / ((performance.now() - started) / 1000);
}

/**
 * What running a tool as a task costs against calling it directly: one HTTP server in this process,
 * a tool that returns at once, each call made by a requester over loopback HTTP. Direct calls,
 * tasks in the process, and tasks on Redis (the state in Redis, the run through the BullMQ queue;
 * a redis-server on loopback), CALLS each per round, rounds alternated.
 */
export async function tasksScenario(): Promise<ScenarioResult> {
  execFileSync('bash', [join(workspaceRoot, 'tools/redis/ensure-redis.sh')], { stdio: 'inherit' });
  const redis = await startTestRedis();
  const memory = await serveHttp(definition(), { port: 0, logger: quiet });
  const store = RedisTaskStore.connect(redis.url);
  const queue = new BullTaskQueue(redis.url, { name: 'bench-tasks', concurrency: IN_FLIGHT });
  const shared = definition({ taskStore: store, taskQueue: queue });
  shared.tasks!.work();
  const onRedis: HttpServerHandle = await serveHttp(shared, { port: 0, logger: quiet });
  // The state on Redis, the run in the process that took the call: Redis without BullMQ.
  const storeOnly = definition({ taskStore: RedisTaskStore.connect(redis.url) });
  const onRedisStore: HttpServerHandle = await serveHttp(storeOnly, { port: 0, logger: quiet });
  try {
    const sends = { memory: httpDispatch(`${memory.origin}/mcp`), store: httpDispatch(`${onRedisStore.origin}/mcp`), redis: httpDispatch(`${onRedis.origin}/mcp`) };
    // Warm every path (validators compiled, connections open) before anything is timed.
    for (let i = 0; i < 50; i++) await Promise.all([direct(sends.memory, i), asTask(sends.memory, i), asTask(sends.store, i), asTask(sends.redis, i)]);
    for (const send of Object.values(sends)) polls.set(send, []);
    const runs: Record<string, number[]> = { direct: [], memory: [], store: [], redis: [] };
    const ratios = { memory: [] as number[], store: [] as number[], redis: [] as number[] };
    const contenders = ['direct', 'memory', 'store', 'redis'] as const;
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? contenders : [...contenders].reverse();
      const medians: Record<string, number> = {};
      for (const contender of order) {
        const times = await latencies((n) => (contender === 'direct' ? direct(sends.memory, n) : asTask(sends[contender], n)));
        runs[contender]!.push(...times);
        medians[contender] = median(times);
      }
      for (const name of ['memory', 'store', 'redis'] as const) ratios[name].push(medians[name]! / medians['direct']!);
    }
    const pollsPerTask = { memory: median(polls.get(sends.memory)!), store: median(polls.get(sends.store)!), redis: median(polls.get(sends.redis)!) };
    const onePoll = { memory: await pollCost(sends.memory), store: await pollCost(sends.store), redis: await pollCost(sends.redis) };
    const perSecond = { memory: await throughput(sends.memory), store: await throughput(sends.store), redis: await throughput(sends.redis) };
    const ratio = (name: 'memory' | 'store' | 'redis') => median(runs[name]!) / median(runs['direct']!);
    const p95 = (name: string) => fmt(runs[name]!.sort((a, b) => a - b)[Math.floor(runs[name]!.length * 0.95)]!, 2);
    return {
      scenario: 'tasks',
      title: '14. Tasks: a round trip against a direct call',
      method:
        `One HTTP server in this process serving a tool that returns at once (task: optional), called over loopback by raw 2026-07-28 requests (@toolsets/testing's httpDispatch): ` +
        `direct (a request that does not declare tasks: the blocking result), and as a task (tools/call declaring the extension, then tasks/get at once and every 2 ms until completed), ` +
        `with tasks in the process, with their state on Redis but run in the process that took the call (RedisTaskStore alone), and on Redis with the run through the queue (RedisTaskStore + BullTaskQueue; a loopback redis-server 7): the second apart from the third is BullMQ's part. ${CALLS} sequential calls per contender per round, ${ROUNDS} rounds, order alternated. ` +
        `Polls: the tasks/get requests a task took to be seen completed (median), and one tasks/get of an ended task (median of ${CALLS}): the round trip less the call is about their product plus the 2 ms waits. ` +
        `Throughput: ${BURST} tasks, ${IN_FLIGHT} in flight, each created and polled to its end.`,
      headers: ['measure', 'direct call', 'task, in the process', 'task, state on Redis, run here', 'task, on Redis through BullMQ'],
      rows: [
        ['median round trip (ms)', fmt(median(runs['direct']!), 2), fmt(median(runs['memory']!), 2), fmt(median(runs['store']!), 2), fmt(median(runs['redis']!), 2)],
        ['p95 (ms)', p95('direct'), p95('memory'), p95('store'), p95('redis')],
        ['÷ direct, per round', '1', ratios.memory.map((r) => fmt(r, 2)).join(', '), ratios.store.map((r) => fmt(r, 2)).join(', '), ratios.redis.map((r) => fmt(r, 2)).join(', ')],
        ['tasks/get per task to see it completed (median)', '', fmt(pollsPerTask.memory, 0), fmt(pollsPerTask.store, 0), fmt(pollsPerTask.redis, 0)],
        ['one tasks/get of an ended task (ms, median)', '', fmt(onePoll.memory, 2), fmt(onePoll.store, 2), fmt(onePoll.redis, 2)],
        ['tasks completed per second', '', fmt(perSecond.memory, 0), fmt(perSecond.store, 0), fmt(perSecond.redis, 0)],
      ],
      verdicts: [
        { target: 'a task round trip in the process ≤ 3 × a direct call', measured: `${fmt(ratio('memory'), 2)}×`, outcome: judge((value) => value <= 3, ratio('memory'), ratios.memory) },
        { target: 'a task round trip on Redis ≤ 10 × a direct call', measured: `${fmt(ratio('redis'), 2)}×`, outcome: judge((value) => value <= 10, ratio('redis'), ratios.redis) },
      ],
      notes: [
        'A task costs at least two requests (the call, one tasks/get) against one; the client polls, so its round trip also holds the poll interval it chose (2 ms here, the tool’s pollIntervalMs otherwise).',
      ],
    };
  } finally {
    await Promise.all([memory.close(), onRedis.close(), onRedisStore.close()]);
    await Promise.all([shared.tasks!.close(5_000), storeOnly.tasks!.close(5_000)]);
    await redis.stop();
  }
}
