import { readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildServer, serveHttp, type ClassType, type HttpServerHandle } from '@toolsets/core';
import { codeMode } from '@toolsets/code-mode';
import { fmt, type ScenarioResult } from '../harness/report';
import { median } from '../harness/stats';
import { buildLibrary, writeLibrary } from './generated-library';
import { directoryDocument } from './openapi-documents';
import { CODE_MODE_TASKS, type CodeModeTask } from './code-mode/code-mode-tasks';

const workspaceRoot = resolve(__dirname, '../../../..');
const GENERATOR_MODULE = join(workspaceRoot, 'tools/workspace-plugin/src/openapi/generate-toolset.ts');

type GenerateToolset = (name: string, document: unknown, config: object) => Promise<{ files: Record<string, string>; toolsets: { className: string; name: string }[] }>;

/** The catalogs of scenarios 9 and 16: the three with multi-step tasks first. */
const CATALOGS: { name: string; label: string; document: () => unknown }[] = [
  { name: 'github', label: 'GitHub', document: () => JSON.parse(readFileSync(require.resolve('@octokit/openapi/generated/api.github.com.json'), 'utf-8')) },
  { name: 'spotify', label: 'Spotify', document: () => directoryDocument('spotify.com.json') },
  { name: 'netlify', label: 'Netlify', document: () => directoryDocument('netlify.com.json') },
  { name: 'box', label: 'Box', document: () => directoryDocument('box.com.json') },
  { name: 'asana', label: 'Asana', document: () => directoryDocument('asana.com.json') },
  { name: 'digitalocean', label: 'DigitalOcean', document: () => directoryDocument('digitalocean.com.json') },
  { name: 'slack', label: 'Slack', document: () => directoryDocument('slack.com.json') },
];

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '0' }, 'io.modelcontextprotocol/clientCapabilities': {} };

/** One 2026-07-28 request over HTTP, as a client sends it: the answer's body bytes, and the answer. */
async function ask(url: string, method: string, params: Record<string, unknown> = {}): Promise<{ bytes: number; result: Record<string, unknown> }> {
  const name: Record<string, string> = typeof params['name'] === 'string' ? { 'mcp-name': params['name'] } : {};
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, 'x-bench-token': 't', ...name },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: META } }),
  });
  const text = await response.text();
  const body = text.startsWith('event:') ? text.split('\n').find((line) => line.startsWith('data: '))!.slice(6) : text;
  const answer = JSON.parse(body) as { result?: Record<string, unknown>; error?: { message: string } };
  if (!answer.result) throw new Error(`${method} at ${url}: ${answer.error?.message ?? body.slice(0, 200)}`);
  return { bytes: Buffer.byteLength(body), result: answer.result };
}

interface Measured {
  label: string;
  tools: number;
  toolsets: number;
  larger: number;
  whole: number;
  groupsList: number;
  discoveryList: number;
  codeList: number;
  /** Each toolset's own tools/list, bytes. */
  groupLists: Map<string, number>;
  /** Each tool's entry in the whole list, bytes, and its group. */
  entries: Map<string, { bytes: number; group: string }>;
  tasks: { task: string; whole: number; groups: number; opened: number; discovery: number; code: number }[];
}

/**
 * What a client loads of each catalog in each way of serving it, over HTTP as it crosses the
 * wire: the whole list; groups (groups/list up front, then the lists of the groups a task needs,
 * as a client with native deferred loading opens namespaces); discovery mode (its list, one
 * search_tools and one describe_tools); code mode (its list, one search and one describe). Per
 * task of scenario 16 (the tools each task's model describes), before any call: call results are
 * the same bytes in the first three ways (code mode reads only the program's output: scenario 16).
 */
export async function catalogModesScenario(): Promise<ScenarioResult> {
  require('@swc-node/register');
  const { generateToolset } = require(GENERATOR_MODULE) as { generateToolset: GenerateToolset };
  const measured: Measured[] = [];
  for (const catalog of CATALOGS) {
    const generated = await generateToolset(catalog.name, catalog.document(), { credentialHeader: 'x-bench-token', groupBy: 'tag', schemaBudget: 16_384 });
    const dir = writeLibrary(generated.files, `bench-catalog-modes-${catalog.name}-`);
    process.env[`${catalog.name.toUpperCase()}_BASE_URL`] = 'http://127.0.0.1:9';
    let http: HttpServerHandle | undefined;
    try {
      buildLibrary(dir);
      const exported = require(join(dir, 'dist/index.js')) as Record<string, ClassType>;
      const server = buildServer({ name: catalog.name, version: '1', toolsets: generated.toolsets.map((t) => exported[t.className]!), logger: silent, codeMode: codeMode() });
      http = await serveHttp(server, { port: 0, logger: silent });
      measured.push(await measure(catalog.label, http.mounts[0]!.url, CODE_MODE_TASKS.filter((task) => task.catalog === catalog.name), server.catalog.groups.length));
      await server.codeMode!.close();
    } finally {
      await http?.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return report(measured);
}

async function measure(label: string, url: string, tasks: readonly CodeModeTask[], larger: number): Promise<Measured> {
  const whole = await ask(url, 'tools/list');
  const listed = whole.result['tools'] as { name: string; _meta?: Record<string, string[]> }[];
  const entries = new Map(listed.map((tool) => [tool.name, { bytes: Buffer.byteLength(JSON.stringify(tool)), group: tool._meta?.['io.modelcontextprotocol/groups']?.[0] ?? '' }]));
  const groups = await ask(url, 'groups/list');
  const toolsets = [...new Set([...entries.values()].map((entry) => entry.group))];
  const groupLists = new Map<string, number>();
  for (const group of toolsets) groupLists.set(group, (await ask(`${url}?toolsets=${encodeURIComponent(group)}`, 'tools/list')).bytes);
  const discoveryList = (await ask(`${url}?mode=discovery`, 'tools/list')).bytes;
  const codeList = (await ask(`${url}?mode=code`, 'tools/list')).bytes;
  const rows: Measured['tasks'] = [];
  for (const task of tasks) {
    const opened = [...new Set(task.describe.map((tool) => entries.get(tool)?.group ?? ''))];
    const search = await ask(`${url}?mode=discovery`, 'tools/call', { name: 'search_tools', arguments: { query: task.query } });
    const described = await ask(`${url}?mode=discovery`, 'tools/call', { name: 'describe_tools', arguments: { names: task.describe } });
    const codeSearch = await ask(`${url}?mode=code`, 'tools/call', { name: 'search', arguments: { query: task.query } });
    const codeDescribe = await ask(`${url}?mode=code`, 'tools/call', { name: 'describe', arguments: { names: task.describe } });
    rows.push({
      task: task.task,
      whole: whole.bytes,
      groups: groups.bytes + opened.reduce((sum, group) => sum + (groupLists.get(group) ?? 0), 0),
      opened: opened.length,
      discovery: discoveryList + search.bytes + described.bytes,
      code: codeList + codeSearch.bytes + codeDescribe.bytes,
    });
  }
  return { label, tools: entries.size, toolsets: toolsets.length, larger, whole: whole.bytes, groupsList: groups.bytes, discoveryList, codeList, groupLists, entries, tasks: rows };
}

function report(measured: readonly Measured[]): ScenarioResult {
  const kib = (bytes: number) => (bytes >= 10_240 ? `${fmt(bytes / 1024, 0)} KiB` : `${fmt(bytes, 0)} B`);
  const ofWhole = (bytes: number, whole: number) => `${fmt((100 * bytes) / whole, bytes / whole < 0.01 ? 2 : 1)}%`;
  const rows: string[][] = [];
  for (const m of measured) {
    const groupSizes = [...m.groupLists.values()];
    const entrySizes = [...m.entries.values()].map((entry) => entry.bytes);
    rows.push(
      [`${m.label}: tools / toolsets / larger groups`, `${m.tools} / ${m.toolsets} / ${m.larger}`, '', ''],
      [`${m.label}: up front: the whole list / groups/list / discovery list / code list`, kib(m.whole), `${kib(m.groupsList)} / ${kib(m.discoveryList)} / ${kib(m.codeList)}`, `${ofWhole(m.groupsList, m.whole)} / ${ofWhole(m.discoveryList, m.whole)} / ${ofWhole(m.codeList, m.whole)}`],
      [`${m.label}: one group's tools/list, median / max`, `${kib(median(groupSizes))} / ${kib(Math.max(...groupSizes))}`, '', `${ofWhole(median(groupSizes), m.whole)} / ${ofWhole(Math.max(...groupSizes), m.whole)}`],
      [`${m.label}: one tool's entry, median / max`, `${kib(median(entrySizes))} / ${kib(Math.max(...entrySizes))}`, '', ''],
    );
  }
  const tasks = measured.flatMap((m) => m.tasks.map((task) => ({ ...task, label: m.label })));
  for (const task of tasks) {
    rows.push([`${task.label}: ${task.task}`, kib(task.whole), `${kib(task.groups)} (${task.opened} group${task.opened === 1 ? '' : 's'}) / ${kib(task.discovery)} / ${kib(task.code)}`, `${ofWhole(task.groups, task.whole)} / ${ofWhole(task.discovery, task.whole)} / ${ofWhole(task.code, task.whole)}`]);
  }
  const total = (key: 'whole' | 'groups' | 'discovery' | 'code') => tasks.reduce((sum, task) => sum + task[key], 0);
  rows.push([`all ${tasks.length} tasks`, kib(total('whole')), `${kib(total('groups'))} / ${kib(total('discovery'))} / ${kib(total('code'))}`, `${ofWhole(total('groups'), total('whole'))} / ${ofWhole(total('discovery'), total('whole'))} / ${ofWhole(total('code'), total('whole'))}`]);
  return {
    scenario: 'catalog-modes',
    title: `18. When to use which: the whole list, groups with deferred loading, discovery mode and code mode, on ${measured.map((m) => `${m.label} (${m.tools} tools)`).join(', ')}`,
    method:
      'Each API generated with `--groupBy=tag` (the library is then a group of its tag toolsets) and served over HTTP on loopback with `codeMode()`. Bytes are the bodies of 2026-07-28 answers as a client receives them: ' +
      'the whole tools/list; groups/list, then one group’s tools/list (`?toolsets=<group>`); the list in discovery mode, then search_tools and describe_tools; the list in code mode, then search and describe. ' +
      'Per task of scenario 16 (GitHub, Spotify, Netlify; written before this scenario), what a client loads before its first call: the whole list; groups/list plus the lists of the groups holding the tools the task needs (a client with native deferred loading that opens exactly those namespaces: the best case); ' +
      'discovery mode’s list, one search_tools with the task’s query and one describe_tools of its tools; code mode’s list, one search and one describe. Call results are left out: they are the same bytes in the first three ways (code mode reads only its program’s output, which scenario 16 measures). ' +
      '`node --expose-gc tools/bench/dist/scenario.js catalog-modes` after `nx run bench:build`.',
    headers: ['measure', 'whole list', 'groups / discovery / code', 'share of the whole list'],
    rows,
    verdicts: [],
    notes: [
      'Groups need a client that defers loading and a model that names the right namespace; the best case is measured here. A task whose tools sit in one large group (GitHub’s repos: 203 tools) loads that whole group.',
      'Discovery and code mode cost a round trip or two before the first call, whatever the catalog’s size; groups cost one list per namespace opened, and each list is byte-stable (ETag) for prompt caching.',
    ],
  };
}
