import { spawnSync } from 'node:child_process';
import { Agent, createServer, request } from 'node:http';
import { readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { buildServer, serveHttp, type ClassType, type ServerDefinition } from '@toolsets/core';
import { connectToolset } from '@toolsets/testing';
import { timeHandler } from '../harness/handler-cost';
import { fmt, judge, ratio, ratioWithBand, type ScenarioResult } from '../harness/report';
import { median } from '../harness/stats';
import { buildLibrary, typecheckLibrary, writeLibrary } from './generated-library';

const workspaceRoot = resolve(__dirname, '../../../..');

/** The generator's pure core: the workspace plugin's TypeScript source, loaded through @swc-node/register. */
const GENERATOR_MODULE = join(workspaceRoot, 'tools/workspace-plugin/src/openapi/generate-toolset.ts');

type GenerateToolset = (
  name: string,
  document: unknown,
  config: { credentialHeader?: string },
) => Promise<{ files: Record<string, string>; toolNames: string[]; openValues: ReadonlyMap<string, number> }>;
const DOCUMENT = require.resolve('@octokit/openapi/generated/api.github.com.json');
const ZEN_CALLS = 12_000;

export interface ColdStart {
  loadMs: number;
  buildMs: number;
  tools: number;
  heapMiB: number;
  listBytes: number;
  /** The ten largest tools/list entries, by bytes of JSON. */
  largest: [name: string, bytes: number][];
  /** Entries over their toolset's schemaBudget because their arguments alone need more (input schemas are never cut). */
  overBudgetForArguments: number;
  /** Entries over their toolset's schemaBudget for any other reason: none should be. */
  overBudgetOtherwise: number;
}

/** `node cold-start.js <entry> <export...>`: a fresh process builds a server from a built library and reports. */
export function coldStart(script: string, entry: string, exports: string[], nodeFlags: string[] = []): ColdStart {
  const run = spawnSync(process.execPath, [...nodeFlags, '--expose-gc', script, 'openapi-cold-start', entry, ...exports], { encoding: 'utf-8', cwd: workspaceRoot, maxBuffer: 64 * 2 ** 20 });
  const line = run.stdout.split('\n').find((l) => l.startsWith('COLD '));
  if (run.status !== 0 || !line) throw new Error(`cold start of ${entry} failed:\n${run.stdout}\n${run.stderr}`);
  return JSON.parse(line.slice('COLD '.length)) as ColdStart;
}

/** Runs in its own process: loads a built toolset library and builds one server from the named exports. */
export function coldStartProcess(entry: string, exportNames: string[]): void {
  const started = performance.now();
  // The library resolves @toolsets/core from the workspace, as this module does: one core, one metadata storage.
  const module = require(entry) as Record<string, unknown> & { buildServers?: () => ServerDefinition | ServerDefinition[] };
  const toolsets = exportNames.map((name) => module[name]) as ClassType[];
  const loaded = performance.now();
  // An app's servers.js builds its own servers; a library's exports are built into one.
  const built = toolsets.length
    ? [buildServer({ name: 'cold', version: '1', toolsets, logger: { info: () => undefined, warn: () => undefined, error: () => undefined } })]
    : [module.buildServers!()].flat();
  const builtAt = performance.now();
  global.gc?.();
  const compiled = built.flatMap((server) => [...server.catalog.tools.values()]);
  const descriptors = compiled.map((tool) => tool.descriptor);
  const over = compiled.filter((tool) => tool.toolset.schemaBudget !== undefined && Buffer.byteLength(JSON.stringify(tool.descriptor)) > tool.toolset.schemaBudget);
  const list = JSON.stringify({ tools: descriptors });
  const result: ColdStart = {
    loadMs: loaded - started,
    buildMs: builtAt - loaded,
    tools: descriptors.length,
    heapMiB: process.memoryUsage().heapUsed / 2 ** 20,
    listBytes: Buffer.byteLength(list),
    largest: descriptors
      .map((tool): [string, number] => [tool.name, Buffer.byteLength(JSON.stringify(tool))])
      .sort((a, b) => b[1] - a[1])
      .slice(0, 10),
    overBudgetForArguments: over.filter((tool) => tool.overSchemaBudget).length,
    overBudgetOtherwise: over.filter((tool) => !tool.overSchemaBudget).length,
  };
  process.stdout.write(`COLD ${JSON.stringify(result)}\n`);
}

/**
 * The largest public OpenAPI document on npm we could find (GitHub's REST API, `@octokit/openapi`,
 * 1,200+ operations) through the OpenAPI generator: generation, swc build and tsc of the generated
 * library, cold start and heap, the size of tools/list, every advertised schema under Ajv 2020
 * strict, and the per-call overhead of a generated tool against a local upstream.
 */
export async function openApiScaleScenario(script: string): Promise<ScenarioResult> {
  require('@swc-node/register');
  const { generateToolset } = require(GENERATOR_MODULE) as { generateToolset: GenerateToolset };
  const document = JSON.parse(readFileSync(DOCUMENT, 'utf-8'));

  const generationStart = performance.now();
  const generated = await generateToolset('github', document, { credentialHeader: 'x-github-token' });
  const generationMs = performance.now() - generationStart;

  const dir = writeLibrary(generated.files, 'bench-openapi-');
  try {
    const buildMs = buildLibrary(dir);
    const tsc = typecheckLibrary(dir);
    const tscMs = tsc.ms;

    const generatedCold = coldStart(script, join(dir, 'dist/index.js'), ['GithubToolset']);
    const demoCold = coldStart(script, join(workspaceRoot, 'apps/demo-server/dist/servers.js'), []);
    const schemaFailures = ajvFailures(join(dir, 'dist/index.js'));
    const perCall = await zenOverhead(join(dir, 'dist/index.js'));
    const lists = await listRepeat(join(dir, 'dist/index.js'));
    const names = generated.toolNames;
    const namesOk = new Set(names).size === names.length && names.every((name) => /^[a-z0-9_]{1,64}$/.test(name));

    return {
      scenario: 'openapi-scale',
      title: `7. OpenAPI at scale: GitHub's REST API (${names.length} operations) as a generated toolset`,
      method:
        `\`@octokit/openapi\` ${require('@octokit/openapi/package.json').version}, \`api.github.com.json\`, through the openapi generator's own code (validate, dereference, model, emit), ` +
        'then the swc build and `tsc --noEmit` of the generated library, a cold `buildServer` in a fresh process (beside the hand-written demo toolsets, built the same way), ' +
        `Ajv 2020 (strict) over every advertised input and output schema, and ${ZEN_CALLS.toLocaleString('en')} calls of \`meta_get_zen\` in memory against a local upstream, against the same number of plain \`fetch\` calls to it (after a warm-up, 6 rounds, order alternated); then tools/list of the whole catalog over HTTP, a fresh server's first request against the median of the next six (both eras), 5 servers, read with node:http.`,
      headers: ['measure', 'generated GitHub toolset', 'hand-written demo toolsets'],
      rows: [
        ['tools', String(generatedCold.tools), String(demoCold.tools)],
        ['generation (s)', fmt(generationMs / 1000, 2), 'n/a'],
        ['swc build (s)', fmt(buildMs / 1000, 2), 'n/a'],
        [`tsc --noEmit (s)${tsc.ok ? '' : ' — failed'}`, fmt(tscMs / 1000, 1), 'n/a'],
        ['cold load of the library (ms)', fmt(generatedCold.loadMs, 0), fmt(demoCold.loadMs, 0)],
        ['cold buildServer (ms)', fmt(generatedCold.buildMs, 0), fmt(demoCold.buildMs, 0)],
        ['cold buildServer per 1,000 tools (ms)', fmt((generatedCold.buildMs / generatedCold.tools) * 1000, 0), 'n/a'],
        ['heap after build (MiB)', fmt(generatedCold.heapMiB, 1), fmt(demoCold.heapMiB, 1)],
        ['tools/list (MiB)', fmt(generatedCold.listBytes / 2 ** 20, 2), fmt(demoCold.listBytes / 2 ** 20, 3)],
        ['schemas failing Ajv 2020 strict', String(schemaFailures), 'n/a'],
        ['open values (schemas not yet expressible)', String([...generated.openValues.values()].reduce((a, b) => a + b, 0)), 'n/a'],
        ['per call, generated tool vs plain fetch (µs)', `${fmt(perCall.toolUs, 0)} vs ${fmt(perCall.fetchUs, 0)}`, 'n/a'],
        ['tools/list over HTTP, first request vs the next (ms)', `${fmt(lists.firstMs, 1)} vs ${fmt(lists.nextMs, 1)}`, 'n/a'],
      ],
      verdicts: [
        { target: 'generation of 1,000+ operations < 30 s', measured: `${fmt(generationMs / 1000, 2)} s`, outcome: judge((s) => s < 30, generationMs / 1000) },
        {
          target: 'cold buildServer < 1 s per 1,000 generated tools',
          measured: `${fmt((generatedCold.buildMs / generatedCold.tools) * 1000, 0)} ms`,
          outcome: judge((ms) => ms < 1000, (generatedCold.buildMs / generatedCold.tools) * 1000),
        },
        { target: 'every advertised schema compiles under Ajv 2020 strict', measured: `${schemaFailures} failing`, outcome: judge((n) => n === 0, schemaFailures) },
        { target: 'tool names unique, [a-z0-9_], at most 64 characters', measured: namesOk ? 'yes' : 'no', outcome: namesOk ? 'pass' : 'miss' },
        { target: 'tsc of the generated library succeeds', measured: tsc.ok ? 'yes' : 'no', outcome: tsc.ok ? 'pass' : 'miss' },
        { target: 'a generated tool ≤ 1.5 × a plain fetch to the same upstream', measured: ratioWithBand(median(perCall.ratios), perCall.ratios), outcome: judge((r) => r <= 1.5, median(perCall.ratios), perCall.ratios) },
        { target: 'tools/list of the catalog: the next request ≤ 0.1 × the first', measured: ratioWithBand(median(lists.ratios), lists.ratios), outcome: judge((r) => r <= 0.1, median(lists.ratios), lists.ratios) },
      ],
      notes: [
        `Per call, the generated tool (MCP client in memory → server → fetch → upstream → projection and validation) costs ${ratio(perCall.toolUs / perCall.fetchUs)} a plain fetch to the same upstream.`,
        `tools/list is large because GitHub's answers are: classes used in several places are written once per tool under $defs, and generated toolsets cap each entry at 16 KiB (scenario 8 has the sizes).`,
      ],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function ajvFailures(entry: string): number {
  const { GithubToolset } = require(entry) as { GithubToolset: ClassType };
  const server = buildServer({ name: 'ajv', version: '1', toolsets: [GithubToolset], logger: { info: () => undefined, warn: () => undefined, error: () => undefined } });
  const ajv = new Ajv2020({ strict: true, allErrors: false });
  addFormats(ajv);
  let failures = 0;
  for (const tool of server.catalog.tools.values()) {
    for (const schema of [tool.descriptor.inputSchema, tool.descriptor.outputSchema]) {
      try {
        ajv.compile(schema as object);
      } catch {
        failures++;
      }
    }
  }
  return failures;
}

/**
 * µs per call, a generated tool through MCP in memory against a plain fetch to the same local
 * upstream: after a warm-up, rounds of both back to back, so each round gives a paired ratio.
 */
async function zenOverhead(entry: string): Promise<{ toolUs: number; fetchUs: number; ratios: number[] }> {
  const upstream = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('Design for failure.'));
  await new Promise<void>((done) => upstream.listen(0, '127.0.0.1', done));
  const base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  process.env['GITHUB_BASE_URL'] = base;
  const { GithubToolset } = require(entry) as { GithubToolset: ClassType };
  const client = await connectToolset(GithubToolset, { headers: { 'x-github-token': 't' } });
  const tool = async () => {
    const result = await client.call('meta_get_zen');
    if (result.isError) throw new Error(JSON.stringify(result.content));
  };
  const plain = async () => void (await (await fetch(`${base}/zen`)).text());
  const toolRounds: number[] = [];
  const fetchRounds: number[] = [];
  try {
    await timeHandler(tool, ZEN_CALLS / 4);
    await timeHandler(plain, ZEN_CALLS / 4);
    for (let round = 0; round < 6; round++) {
      const first = round % 2 === 0;
      const a = await timeHandler(first ? tool : plain, ZEN_CALLS / 6);
      const b = await timeHandler(first ? plain : tool, ZEN_CALLS / 6);
      toolRounds.push(first ? a : b);
      fetchRounds.push(first ? b : a);
    }
  } finally {
    await client.close();
    await new Promise((done) => upstream.close(done));
  }
  return { toolUs: median(toolRounds), fetchUs: median(fetchRounds), ratios: toolRounds.map((us, round) => us / fetchRounds[round]!) };
}

/**
 * tools/list of the whole generated catalog over HTTP (2026-07-28 and 2025-era requests), read to
 * the last byte and not parsed: the first request of a fresh server, then the next ones, which the
 * server answers from the bytes it serialised for the first.
 */
async function listRepeat(entry: string): Promise<{ firstMs: number; nextMs: number; ratios: number[] }> {
  const { GithubToolset } = require(entry) as { GithubToolset: ClassType };
  const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
  const ratios: number[] = [];
  const firsts: number[] = [];
  const nexts: number[] = [];
  const agent = new Agent({ keepAlive: true });
  for (let round = 0; round < 5; round++) {
    const handle = await serveHttp(buildServer({ name: 'github', version: '1', toolsets: [GithubToolset], logger: quiet }), { port: 0, logger: quiet });
    try {
      const url = handle.mounts[0]!.url;
      const ask = async (id: number, era: 'modern' | 'legacy') => {
        const start = performance.now();
        await postAndDrain(agent, url, listRequest(id, era));
        return performance.now() - start;
      };
      const first = await ask(0, 'modern');
      const next: number[] = [];
      for (let i = 1; i <= 6; i++) next.push(await ask(i, i % 2 ? 'modern' : 'legacy'));
      firsts.push(first);
      nexts.push(median(next));
      ratios.push(median(next) / first);
    } finally {
      await handle.close();
    }
  }
  agent.destroy();
  return { firstMs: median(firsts), nextMs: median(nexts), ratios };
}

/** POSTs with node:http (lighter than fetch, so the server's time dominates) and reads the answer to its end. */
function postAndDrain(agent: Agent, url: string, init: { headers: Record<string, string>; body: string }): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent, headers: init.headers }, (res) => {
      if (res.statusCode !== 200) reject(new Error(`tools/list answered ${res.statusCode}`));
      res.on('data', () => undefined).on('end', resolve).on('error', reject);
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

function listRequest(id: number, era: 'modern' | 'legacy'): { headers: Record<string, string>; body: string } {
  const modern = era === 'modern';
  const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };
  return {
    headers: {
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      'mcp-protocol-version': modern ? '2026-07-28' : '2025-11-25',
      ...(modern && { 'mcp-method': 'tools/list' }),
    },
    body: JSON.stringify({ method: 'tools/list', jsonrpc: '2.0', id, ...(modern && { params: { _meta: meta } }) }),
  };
}
