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
const definition = (options: Partial<Parameters<typeof buildServer>[0]> = {}): ServerDefinition => buildServer({ name: 'bench-tasks', version: '1', toolsets: [BenchTasksToolset], logger: quiet, telemetry: false, ...options });

const direct = (send: RawDispatch, n: number) => send({ method: 'tools/call', params: { name: 'square', arguments: { n }, _meta: modernMeta({ tasks: false }) } });

/** A task round trip as a requester makes it: the call, then tasks/get at once and every 2 ms until it has ended. */
async function asTask(send: RawDispatch, n: number): Promise<number> {
  const created = await send({ method: 'tools/call', params: { name: 'square', arguments: { n }, _meta: modernMeta() } });
  if (created.kind === 'error') throw new Error(created.error.message);
  const taskId = created.result['taskId'] as string;
  for (;;) {
    const got = await send({ method: 'tasks/get', params: { taskId, _meta: modernMeta() } });
    if (got.kind === 'error') throw new Error(got.error.message);
    if (got.result['status'] === 'completed') return ((got.result['result'] as { structuredContent: { square: number } }).structuredContent).square;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
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
  try {
    const sends = { memory: httpDispatch(`${memory.origin}/mcp`), redis: httpDispatch(`${onRedis.origin}/mcp`) };
    // Warm both paths (validators compiled, connections open) before anything is timed.
    for (let i = 0; i < 50; i++) await Promise.all([direct(sends.memory, i), asTask(sends.memory, i), asTask(sends.redis, i)]);
    const runs: Record<string, number[]> = { direct: [], memory: [], redis: [] };
    const ratios = { memory: [] as number[], redis: [] as number[] };
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? ['direct', 'memory', 'redis'] : ['redis', 'memory', 'direct'];
      const medians: Record<string, number> = {};
      for (const contender of order) {
        const times = await latencies((n) => (contender === 'direct' ? direct(sends.memory, n) : asTask(contender === 'memory' ? sends.memory : sends.redis, n)));
        runs[contender]!.push(...times);
        medians[contender] = median(times);
      }
      ratios.memory.push(medians['memory']! / medians['direct']!);
      ratios.redis.push(medians['redis']! / medians['direct']!);
    }
    const perSecond = { memory: await throughput(sends.memory), redis: await throughput(sends.redis) };
    const ratio = (name: 'memory' | 'redis') => median(runs[name]!) / median(runs['direct']!);
    return {
      scenario: 'tasks',
      title: '14. Tasks: a round trip against a direct call',
      method:
        `One HTTP server in this process serving a tool that returns at once (task: optional), called over loopback by raw 2026-07-28 requests (@toolsets/testing's httpDispatch): ` +
        `direct (a request that does not declare tasks: the blocking result), and as a task (tools/call declaring the extension, then tasks/get at once and every 2 ms until completed), ` +
        `with tasks in the process and on Redis (RedisTaskStore + BullTaskQueue on a loopback redis-server 7). ${CALLS} sequential calls per contender per round, ${ROUNDS} rounds, order alternated. ` +
        `Throughput: ${BURST} tasks, ${IN_FLIGHT} in flight, each created and polled to its end.`,
      headers: ['measure', 'direct call', 'task, in the process', 'task, on Redis'],
      rows: [
        ['median round trip (ms)', fmt(median(runs['direct']!), 2), fmt(median(runs['memory']!), 2), fmt(median(runs['redis']!), 2)],
        ['p95 (ms)', fmt(runs['direct']!.sort((a, b) => a - b)[Math.floor(runs['direct']!.length * 0.95)]!, 2), fmt(runs['memory']!.sort((a, b) => a - b)[Math.floor(runs['memory']!.length * 0.95)]!, 2), fmt(runs['redis']!.sort((a, b) => a - b)[Math.floor(runs['redis']!.length * 0.95)]!, 2)],
        ['÷ direct, per round', '1', ratios.memory.map((r) => fmt(r, 2)).join(', '), ratios.redis.map((r) => fmt(r, 2)).join(', ')],
        ['tasks completed per second', '', fmt(perSecond.memory, 0), fmt(perSecond.redis, 0)],
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
    await Promise.all([memory.close(), onRedis.close()]);
    await shared.tasks!.close(5_000);
    await redis.stop();
  }
}
