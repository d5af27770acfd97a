import { readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildServer, type ClassType, type ServerDefinition } from '@toolsets/core';
import { codeMode } from '@toolsets/code-mode';
import { connectToolset, type ToolsetClient } from '@toolsets/testing';
import { fmt, judge, type ScenarioResult, type Verdict } from '../../harness/report';
import { median, percentile } from '../../harness/stats';
import { buildLibrary, writeLibrary } from '../generated-library';
import { directoryDocument } from '../openapi-documents';
import { CODE_MODE_TASKS, type CodeModeTask, type DiscoverySteps } from './code-mode-tasks';
import { startSampledUpstream } from '../plugin-modules';
import { checkedDeclarations, describe, describeForProgram } from './types-read';

const workspaceRoot = resolve(__dirname, '../../../../..');
const GENERATOR_MODULE = join(workspaceRoot, 'tools/workspace-plugin/src/openapi/generate-toolset.ts');
const OVERHEAD_ROUNDS = 200;
const INNER_CALLS = 50;

type GenerateToolset = (name: string, document: unknown, config: object) => Promise<{ files: Record<string, string>; toolsets: { className: string; name: string }[] }>;

const CATALOGS: { name: CodeModeTask['catalog']; label: string; document: () => unknown }[] = [
  { name: 'github', label: 'GitHub', document: () => JSON.parse(readFileSync(require.resolve('@octokit/openapi/generated/api.github.com.json'), 'utf-8')) },
  { name: 'spotify', label: 'Spotify', document: () => directoryDocument('spotify.com.json') },
  { name: 'netlify', label: 'Netlify', document: () => directoryDocument('netlify.com.json') },
];


const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value ?? null));

interface TaskRun {
  catalog: string;
  task: string;
  calls: number;
  discovery: { bytes: number; trips: number };
  /** `describes`: the further describe calls its program's reads cost (their bytes are in `bytes`). */
  code: { bytes: number; trips: number; describes: number; ok: boolean; why?: string };
}

/**
 * Code mode against discovery mode on three generated catalogs (GitHub, and Spotify and Netlify,
 * which no test uses), over a loopback upstream answering every operation with a sample of its
 * documented response: bytes a model reads and round trips per task of `code-mode-tasks.ts`; the
 * list in code mode; `describe` against a tool's JSON entry; execute's overhead, sandbox start,
 * and inner calls against direct calls.
 */
export async function codeModeScenario(): Promise<ScenarioResult> {
  require('@swc-node/register');
  const { generateToolset } = require(GENERATOR_MODULE) as { generateToolset: GenerateToolset };
  const runs: TaskRun[] = [];
  const lists: { label: string; tools: number; codeBytes: number; discoveryBytes: number; describeBytes: number; entryBytes: number; tool: string }[] = [];
  let overhead: Awaited<ReturnType<typeof executeOverhead>> | undefined;
  for (const catalog of CATALOGS) {
    const document = catalog.document();
    const generated = await generateToolset(catalog.name, document, { credentialHeader: `x-${catalog.name}-token`, groupBy: 'tag', schemaBudget: 16_384 });
    const dir = writeLibrary(generated.files, `bench-code-mode-${catalog.name}-`);
    const upstream = await startSampledUpstream(document as { paths?: Record<string, Record<string, unknown>> });
    process.env[`${catalog.name.toUpperCase()}_BASE_URL`] = upstream.url;
    try {
      buildLibrary(dir);
      const exported = require(join(dir, 'dist/index.js')) as Record<string, ClassType>;
      const server = buildServer({ name: catalog.name, version: '1', toolsets: generated.toolsets.map((t) => exported[t.className]!), logger: silent, codeMode: codeMode() });
      const headers = { [`x-${catalog.name}-token`]: 't' };
      const discovering = await connectToolset(server, { headers, selection: { mode: 'discovery', readonly: false } });
      const coding = await connectToolset(server, { headers, selection: { mode: 'code', readonly: false } });
      try {
        const discoveryList = bytesOf({ tools: await discovering.listTools() });
        const codeList = bytesOf({ tools: await coding.listTools() });
        const tasks = CODE_MODE_TASKS.filter((task) => task.catalog === catalog.name);
        const first = tasks[0]!.describe[0]!;
        const described = await coding.call('describe', { names: [first] });
        lists.push({
          label: catalog.label,
          tools: server.catalog.tools.size,
          codeBytes: codeList,
          discoveryBytes: discoveryList,
          describeBytes: Buffer.byteLength(String((described.structuredContent as { declarations?: string }).declarations ?? '')),
          entryBytes: bytesOf(server.catalog.tools.get(first)!.descriptor),
          tool: first,
        });
        const declarations = checkedDeclarations(server);
        for (const task of tasks) runs.push(await runTask(task, discovering, coding, discoveryList, codeList, declarations));
        if (catalog.name === 'github') overhead = await executeOverhead(server, headers);
      } finally {
        await discovering.close();
        await coding.close();
        await server.codeMode!.close();
      }
    } finally {
      await upstream.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return report(runs, lists, overhead);
}

async function runTask(task: CodeModeTask, discovering: ToolsetClient, coding: ToolsetClient, discoveryList: number, codeList: number, declarations: string): Promise<TaskRun> {
  let discoveryBytes = discoveryList;
  let discoveryTrips = 1;
  let calls = 0;
  const steps: DiscoverySteps = {
    search: async (query) => void (discoveryBytes += bytesOf((await discovering.call('search_tools', { query })).structuredContent), discoveryTrips++),
    describe: async (names) => void (discoveryBytes += bytesOf((await discovering.call('describe_tools', { names })).structuredContent), discoveryTrips++),
    call: async (name, args) => {
      const result = await discovering.call('call_tool', { name, arguments: args });
      discoveryBytes += bytesOf(result.structuredContent);
      discoveryTrips++;
      calls++;
      return (result.structuredContent ?? {}) as { data?: never };
    },
  };
  await task.discovery(steps);
  let codeBytes = codeList;
  codeBytes += bytesOf((await coding.call('search', { query: task.query })).structuredContent);
  // describe of the task's tools, then of each type its program reads that the answer named without writing it out.
  const described = await describeForProgram(describe(coding), task.describe, task.program, declarations);
  codeBytes += described.bytes;
  const executed = await coding.call('execute', { program: task.program });
  const content = executed.structuredContent as { detail?: string } | undefined;
  codeBytes += bytesOf(content);
  return {
    catalog: task.catalog,
    task: task.task,
    calls,
    discovery: { bytes: discoveryBytes, trips: discoveryTrips },
    code: { bytes: codeBytes, trips: 4, describes: described.more, ok: !executed.isError, ...(executed.isError && { why: content?.detail ?? 'isError' }) },
  };
}

/**
 * A 30-line program making three inner calls (GitHub's meta_get_zen, against the upstream) timed
 * against the same three calls made directly, interleaved; sandbox start (the first execute of a
 * new code mode: TypeScript and a worker); and 50 inner calls in one program against 50 direct calls.
 */
async function executeOverhead(server: ServerDefinition, headers: Record<string, string>) {
  const program = [
    'const seen: string[] = [];',
    ...Array.from({ length: 24 }, (_, i) => `const n${i} = ${i} * 2 + 1;`),
    'for (let i = 0; i < 3; i++) {',
    '  const zen = await api.meta.meta_get_zen();',
    "  seen.push('error' in zen ? zen.error : String(zen.status) + n0 + n23);",
    '}',
    'return seen;',
  ].join('\n');
  const fresh = buildServer({ name: 'fresh', version: '1', toolsets: server.catalog.toolsets.map((toolset) => toolset.cls), logger: silent, codeMode: codeMode() });
  const cold = await connectToolset(fresh, { headers, selection: { mode: 'code', readonly: false } });
  const started = performance.now();
  const first = await cold.call('execute', { program });
  const startMs = performance.now() - started;
  await cold.close();
  await fresh.codeMode!.close();
  if (first.isError) throw new Error(`the overhead program failed: ${JSON.stringify(first.structuredContent)}`);
  const coding = await connectToolset(server, { headers, selection: { mode: 'code', readonly: false } });
  const direct = await connectToolset(server, { headers });
  const time = async (run: () => Promise<unknown>) => {
    const at = performance.now();
    await run();
    return performance.now() - at;
  };
  const overheads: number[] = [];
  try {
    for (let i = 0; i < 20; i++) await coding.call('execute', { program });
    for (let round = 0; round < OVERHEAD_ROUNDS; round++) {
      const executed = await time(() => coding.call('execute', { program }));
      const directMs = await time(async () => {
        for (let i = 0; i < 3; i++) await direct.call('meta_get_zen');
      });
      overheads.push(executed - directMs);
    }
    const many = `for (let i = 0; i < ${INNER_CALLS}; i++) await api.meta.meta_get_zen();\nreturn ${INNER_CALLS};`;
    const innerRuns: number[] = [];
    const directRuns: number[] = [];
    for (let round = 0; round < 10; round++) {
      innerRuns.push(await time(() => coding.call('execute', { program: many })));
      directRuns.push(
        await time(async () => {
          for (let i = 0; i < INNER_CALLS; i++) await direct.call('meta_get_zen');
        }),
      );
    }
    return { startMs, p50: median(overheads), p99: percentile(overheads, 99), innerPerSecond: (INNER_CALLS * 1000) / median(innerRuns), directPerSecond: (INNER_CALLS * 1000) / median(directRuns) };
  } finally {
    await coding.close();
    await direct.close();
  }
}

function report(runs: TaskRun[], lists: { label: string; tools: number; codeBytes: number; discoveryBytes: number; describeBytes: number; entryBytes: number; tool: string }[], overhead: Awaited<ReturnType<typeof executeOverhead>> | undefined): ScenarioResult {
  const n = (value: number) => value.toLocaleString('en');
  const rows: string[][] = runs.map((run) => [
    `${run.catalog}: ${run.task}`,
    String(run.calls),
    `${n(run.discovery.bytes)} / ${run.discovery.trips}`,
    `${n(run.code.bytes)} / ${run.code.trips}${run.code.ok ? '' : ' (failed)'}`,
    `${fmt((run.code.bytes / run.discovery.bytes) * 100, 0)}%`,
  ]);
  const multi = runs.filter((run) => run.calls >= 3);
  const share = (set: TaskRun[]) => set.reduce((sum, run) => sum + run.code.bytes, 0) / Math.max(1, set.reduce((sum, run) => sum + run.discovery.bytes, 0));
  rows.push(['all tasks', String(runs.reduce((s, r) => s + r.calls, 0)), n(runs.reduce((s, r) => s + r.discovery.bytes, 0)), n(runs.reduce((s, r) => s + r.code.bytes, 0)), `${fmt(share(runs) * 100, 0)}%`]);
  rows.push([`tasks of 3 or more calls (${multi.length})`, String(multi.reduce((s, r) => s + r.calls, 0)), n(multi.reduce((s, r) => s + r.discovery.bytes, 0)), n(multi.reduce((s, r) => s + r.code.bytes, 0)), `${fmt(share(multi) * 100, 0)}%`]);
  for (const list of lists) {
    rows.push([`${list.label} (${list.tools} tools): tools/list in discovery mode / in code mode`, '', n(list.discoveryBytes), n(list.codeBytes), '']);
    rows.push([`${list.label}: ${list.tool}, its tools/list entry (JSON) / describe (TypeScript)`, '', n(list.entryBytes), n(list.describeBytes), `${fmt((list.describeBytes / list.entryBytes) * 100, 0)}%`]);
  }
  if (overhead) {
    rows.push(['execute overhead, 30-line program, 3 inner calls, beyond the calls: p50 / p99 ms', '', '', `${fmt(overhead.p50, 1)} / ${fmt(overhead.p99, 1)}`, '']);
    rows.push(['sandbox start: first execute of a new code mode (TypeScript, worker, module), ms', '', '', fmt(overhead.startMs, 0), '']);
    rows.push([`inner calls per second (${INNER_CALLS} in one program) / direct calls per second`, '', fmt(overhead.directPerSecond, 0), fmt(overhead.innerPerSecond, 0), `${fmt((overhead.innerPerSecond / overhead.directPerSecond) * 100, 0)}%`]);
  }
  const failed = runs.filter((run) => !run.code.ok);
  const verdicts: Verdict[] = [
    { target: 'code mode ≤ 25% of discovery mode’s bytes on tasks of three or more calls', measured: `${fmt(share(multi) * 100, 0)}% over ${multi.length} tasks`, outcome: judge((s) => s <= 0.25, share(multi)) },
    ...lists.map((list) => ({ target: `code-mode tools/list of ${list.label} under 2 KB`, measured: `${n(list.codeBytes)} bytes`, outcome: judge((b) => b < 2048, list.codeBytes) })),
    ...(overhead
      ? [
          { target: 'execute overhead p50 ≤ 150 ms', measured: `${fmt(overhead.p50, 1)} ms`, outcome: judge((v) => v <= 150, overhead.p50) },
          { target: 'execute overhead p99 ≤ 400 ms', measured: `${fmt(overhead.p99, 1)} ms`, outcome: judge((v) => v <= 400, overhead.p99) },
        ]
      : []),
    { target: 'every task’s program runs', measured: `${runs.length - failed.length} of ${runs.length}`, outcome: judge((f) => f === 0, failed.length) },
  ];
  return {
    scenario: 'code-mode',
    title: `16. Code mode against discovery mode: ${runs.length} multi-step tasks on ${lists.map((l) => `${l.label} (${l.tools} tools)`).join(', ')}`,
    method:
      'Each API generated with `--groupBy=tag` and served with `codeMode()`, its generated client pointed at a loopback upstream that answers every operation with a sample of its documented 2xx response (openapi-sampler; arrays of five items). ' +
      'Per task of tools/bench/src/scenarios/code-mode/code-mode-tasks.ts (committed before the first run): discovery mode reads its tools/list, one search_tools, one describe_tools and every call_tool result whole; code mode reads its tools/list, one search, one describe (then a describe of each named type its program reads or writes that the answers so far left out, found with TypeScript over the program) and the execute result. ' +
      'Bytes are those of each answer’s structuredContent (the JSON text block repeats it); "trips" counts tools/list and each tool call. In memory through the SDK client.',
    headers: ['task', 'calls', 'discovery: bytes / trips', 'code: bytes / trips', 'code / discovery'],
    rows,
    verdicts,
    notes: [
      ...failed.map((run) => `Failed in code mode: ${run.catalog}, "${run.task}": ${run.code.why}`),
      `Further describe calls for types the programs read that an answer named without writing out: ${runs.reduce((sum, run) => sum + run.code.describes, 0)} over ${runs.length} tasks (their bytes counted).`,
      'The sampler fills every string with "string"; some task filters also accept that value so their later steps run (written so before the first run). Spotify is used by no other scenario and no test; Netlify is generated and called in scenario 8b, and neither the search nor code mode was tuned on either.',
    ],
  };
}
