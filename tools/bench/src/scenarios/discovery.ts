import { createServer } from 'node:http';
import { readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildServer, type ClassType, type ServerDefinition } from '@toolsets/core';
import { connectToolset, type ToolsetClient } from '@toolsets/testing';
import { fmt, judge, ratioWithBand, type ScenarioResult } from '../harness/report';
import { median, percentile } from '../harness/stats';
import { buildLibrary, writeLibrary } from './generated-library';

const workspaceRoot = resolve(__dirname, '../../../..');
const GENERATOR_MODULE = join(workspaceRoot, 'tools/workspace-plugin/src/openapi/generate-toolset.ts');
const DOCUMENT = require.resolve('@octokit/openapi/generated/api.github.com.json');
const TASKS = join(workspaceRoot, 'tools/bench/src/scenarios/discovery-tasks.json');
/** The generator's default (`--schemaBudget`): what a user who generates GitHub gets. */
const SCHEMA_BUDGET = 16_384;
const SEARCH_ROUNDS = 5;
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
}

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

/**
 * GitHub's REST API generated with `--groupBy=tag` and served as one server: the size of each
 * group's list and of discovery mode's, `search_tools` latency and quality over a committed set of
 * tasks, and `call_tool` against a direct call of the same tool.
 */
export async function discoveryScenario(): Promise<ScenarioResult> {
  require('@swc-node/register');
  const { generateToolset } = require(GENERATOR_MODULE) as { generateToolset: GenerateToolset };
  const generated = await generateToolset('github', JSON.parse(readFileSync(DOCUMENT, 'utf-8')), { credentialHeader: 'x-github-token', groupBy: 'tag', schemaBudget: SCHEMA_BUDGET });
  const dir = writeLibrary(generated.files, 'bench-discovery-');
  try {
    buildLibrary(dir);
    const exported = require(join(dir, 'dist/index.js')) as Record<string, ClassType>;
    const server = buildServer({ name: 'github', version: '1', toolsets: generated.toolsets.map((t) => exported[t.className]), logger: silent });
    const { whole, groups, discovery } = server.views.sizes;
    const { tasks, heldOut } = JSON.parse(readFileSync(TASKS, 'utf-8')) as { tasks: Task[]; heldOut: Task[] };
    const client = await connectToolset(server, { headers: { 'x-github-token': 't' }, selection: { mode: 'discovery' } });
    try {
      const search = await searchRuns(client, tasks);
      const held = await searchRuns(client, heldOut);
      const calls = await callOverhead(server);
      const bySize = [...groups].sort((a, b) => b.bytes - a.bytes);
      const kib = (bytes: number) => `${fmt(bytes / 1024, 1)} KiB`;
      const tools = (count: number) => `${count} tool${count === 1 ? '' : 's'}`;
      const { top1, top5, misses } = quality(tasks, search);
      const heldQuality = quality(heldOut, held);
      const missLine = (list: typeof misses) =>
        list.map((m) => `"${m.task.task}" → ${m.task.tool} ${m.rank < 1 ? 'not in the top 5' : `#${m.rank}`}, first ${m.first}`).join('; ');
      return {
        scenario: 'discovery',
        title: `9. Large catalogs: GitHub's ${whole.tools.toLocaleString('en')} tools in ${groups.length} groups, selection and discovery mode`,
        method:
          `GitHub's REST API (\`@octokit/openapi\` ${require('@octokit/openapi/package.json').version}) generated with \`--groupBy=tag\` (and the default 16 KiB schema budget per tool) and served as one server of ${groups.length} toolsets. ` +
          `List sizes are the bytes of the \`tools/list\` answer each selection gets. \`search_tools\` runs through the MCP client in memory, ${SEARCH_ROUNDS} rounds over the ${tasks.length} committed tasks ` +
          `(\`tools/bench/src/scenarios/discovery-tasks.json\`, limit 5); the first search, which builds the index, is timed apart. \`call_tool\` runs \`meta_get_zen\` against a local upstream, ` +
          `${CALL_ROUNDS} rounds of ${CALLS_PER_ROUND} calls, interleaved call by call with direct calls of the tool.`,
        headers: ['measure', 'value'],
        rows: [
          ['tools / groups', `${whole.tools} / ${groups.length}`],
          ['tools/list, every tool', `${fmt(whole.bytes / 2 ** 20, 2)} MiB (~${whole.estimatedTokens.toLocaleString('en')} tokens)`],
          ['tools/list, discovery mode', `${discovery.bytes.toLocaleString('en')} bytes (~${discovery.estimatedTokens.toLocaleString('en')} tokens)`],
          ['largest groups', bySize.slice(0, 6).map((g) => `${g.name} ${tools(g.tools)} ${kib(g.bytes)}`).join('; ')],
          ['smallest groups', bySize.slice(-4).map((g) => `${g.name} ${tools(g.tools)} ${kib(g.bytes)}`).join('; ')],
          ['groups under 100 KiB (~25K tokens)', `${groups.filter((g) => g.bytes < 100 * 1024).length} of ${groups.length}`],
          ['first search (builds the index), ms', fmt(search.firstMs, 0)],
          ['search_tools p50 / p99, ms', `${fmt(search.p50, 2)} / ${fmt(search.p99, 2)}`],
          [`search quality, top 1 / top 5 (${tasks.length} tasks)`, `${fmt(top1 * 100, 0)}% / ${fmt(top5 * 100, 0)}%`],
          [`search quality on ${heldOut.length} held-out tasks, top 1 / top 5`, `${fmt(heldQuality.top1 * 100, 0)}% / ${fmt(heldQuality.top5 * 100, 0)}%`],
          ['call_tool vs a direct call, per call', `${ratioWithBand(calls.ratio, calls.band)} (${fmt(calls.viaUs, 0)} vs ${fmt(calls.directUs, 0)} µs)`],
        ],
        verdicts: [
          { target: 'discovery-mode tools/list of the GitHub catalog < 4 KB', measured: `${discovery.bytes.toLocaleString('en')} bytes`, outcome: judge((b) => b < 4096, discovery.bytes) },
          { target: 'search_tools: the task\'s tool in the top 5 for ≥ 90% of tasks', measured: `${fmt(top5 * 100, 0)}% (top 1: ${fmt(top1 * 100, 0)}%)`, outcome: judge((r) => r >= 0.9, top5) },
          {
            target: 'the same on held-out tasks (never used to tune)',
            measured: `${fmt(heldQuality.top5 * 100, 0)}% (top 1: ${fmt(heldQuality.top1 * 100, 0)}%)`,
            outcome: judge((r) => r >= 0.9, heldQuality.top5),
          },
          { target: 'call_tool ≤ 1.1× a direct call of the same tool', measured: ratioWithBand(calls.ratio, calls.band), outcome: judge((r) => r <= 1.1, calls.ratio, calls.band) },
        ],
        notes: [
          misses.length === 0 ? 'Every task found its tool in the top 5.' : `Misses (expected tool, its rank, what came first): ${missLine(misses)}.`,
          heldQuality.misses.length === 0 ? 'Every held-out task found its tool in the top 5.' : `Held-out misses: ${missLine(heldQuality.misses)}.`,
          'The word tables (organization = org, repository = repo; open, add, publish also mean create; show, fetch also mean get; …) were written after a first run on the tasks (82% top 5, 64% top 1); the held-out tasks were written after them and never used to tune.',
          'Search ranks with minisearch (BM25+) over tool names split into words, titles, descriptions, argument names and descriptions, and group names, with a light stemmer; boosts: name 3, title 2, group 1.5, description 1, arguments 0.8.',
        ],
      };
    } finally {
      await client.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function quality(tasks: readonly Task[], run: { ranks: number[]; firsts: string[] }) {
  const top5 = run.ranks.filter((rank) => rank >= 1 && rank <= 5).length / tasks.length;
  const top1 = run.ranks.filter((rank) => rank === 1).length / tasks.length;
  const misses = tasks.map((task, i) => ({ task, rank: run.ranks[i], first: run.firsts[i] })).filter((m) => m.rank < 1 || m.rank > 5);
  return { top1, top5, misses };
}

async function searchRuns(client: ToolsetClient, tasks: readonly Task[]) {
  const search = (query: string) => client.call('search_tools', { query, limit: 5 });
  let started = performance.now();
  await search(tasks[0].task);
  const firstMs = performance.now() - started;
  const ranks: number[] = [];
  const firsts: string[] = [];
  const times: number[] = [];
  for (let round = 0; round < SEARCH_ROUNDS; round++) {
    for (const task of tasks) {
      started = performance.now();
      const result = await search(task.task);
      times.push(performance.now() - started);
      if (round > 0) continue;
      const found = ((result.structuredContent as { tools?: { name: string }[] } | undefined)?.tools ?? []).map((tool) => tool.name);
      ranks.push(found.indexOf(task.tool) + 1);
      firsts.push(found[0] ?? 'nothing');
    }
  }
  return { firstMs, ranks, firsts, p50: median(times), p99: percentile(times, 99) };
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
