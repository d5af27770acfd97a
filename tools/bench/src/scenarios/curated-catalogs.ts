import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildServer, type ClassType } from '@toolsets/core';
import { connectToolset, freePort } from '@toolsets/testing';
import { fmt, type ScenarioResult } from '../harness/report';
import { buildLibrary, writeLibrary } from './generated-library';
import { argumentsFor, PRISM, startPrism } from './mock-calls';

const workspaceRoot = resolve(__dirname, '../../../..');
const GENERATOR_MODULE = join(workspaceRoot, 'tools/workspace-plugin/src/openapi/generate-toolset.ts');
/** The curated example docs/openapi.md points to: 40 operations a coding agent needs. */
const CURATION = join(workspaceRoot, 'docs/examples/github.openapi.config.json');

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

/**
 * The same 40 GitHub operations generated twice, as the document gives them and curated
 * (docs/examples/github.openapi.config.json: page sizes hidden behind a constant, answers cut to
 * the fields a coding agent reads), served, and each tool called once against Prism mocking the
 * document: tools/list bytes, and each answer's bytes, before and after.
 */
export async function curatedCatalogsScenario(): Promise<ScenarioResult> {
  require('@swc-node/register');
  const { generateToolset } = require(GENERATOR_MODULE) as { generateToolset: GenerateToolset };
  const curation = JSON.parse(readFileSync(CURATION, 'utf-8')) as { name: string; include: string[]; credentialHeader: string };
  const document = JSON.parse(readFileSync(require.resolve('@octokit/openapi/generated/api.github.com.json'), 'utf-8')) as Json;
  const specDir = mkdtempSync(join(tmpdir(), 'bench-curated-'));
  const spec = join(specDir, 'openapi.json');
  // Prism mocks only the curated operations' paths: the whole document takes it minutes to load.
  writeFileSync(spec, JSON.stringify(onlyOperations(document, new Set(curation.include))));
  const port = await freePort();
  const prism = await startPrism(spec, port);
  try {
    const plain = await serve(generateToolset, document, { name: curation.name, credentialHeader: curation.credentialHeader, include: curation.include }, port, 'plain');
    const curated = await serve(generateToolset, document, curation, port, 'curated');
    const both = [...curated.results.keys()].filter((tool) => plain.results.has(tool));
    const median = (values: number[]) => {
      const sorted = [...values].sort((a, b) => a - b);
      return sorted.length ? sorted[Math.floor(sorted.length / 2)]! : 0;
    };
    const plainMedian = median(both.map((tool) => plain.results.get(tool)!));
    const curatedMedian = median(both.map((tool) => curated.results.get(tool)!));
    const total = (served: Served) => both.reduce((sum, tool) => sum + served.results.get(tool)!, 0);
    return {
      scenario: 'curated-catalogs',
      title: '17. Curated catalogs: 40 GitHub tools for a coding agent, as generated and curated',
      method:
        `\`@octokit/openapi\`'s document, the 40 operations of docs/examples/github.openapi.config.json generated twice: with only \`include\` (as the document gives them) and with the example's curation ` +
        `(\`per_page\` hidden behind 20 on every paged list, \`state\` narrowed to open/closed with default open, each answer cut to the fields listed under \`fields\`). Each served in memory and every tool called once ` +
        `with the arguments a model would make from the advertised schema alone (\`argumentsFor\`, as in 8b) against ${PRISM.split('@')[1]}@${PRISM.split('@')[2]} mocking the same operations (its answers are the document's own examples). ` +
        'Result bytes are the structuredContent JSON of calls that returned a typed result in both versions. ' +
        "Prism answers with the document's own examples, and some of GitHub's break its own schema (a required `language` missing, `requested_teams` without `type`): " +
        'as generated, those calls are refused (the notes name the field); the curation cuts most of those fields away and marks the three tools whose kept fields still break `lenient`.',
      headers: ['measure', 'as generated', 'curated', 'ratio'],
      rows: [
        ['tools', String(curation.include.length), String(curation.include.length), ''],
        ['tools/list bytes', fmt(plain.listBytes, 0), fmt(curated.listBytes, 0), `${fmt(curated.listBytes / plain.listBytes, 2)}×`],
        ['calls with a typed result', `${plain.results.size}/${plain.calls}`, `${curated.results.size}/${curated.calls}`, ''],
        ["of which the mock's answer broke the document, passed on as `unchecked` (lenient)", String(plain.lenient), String(curated.lenient), ''],
        [`median result bytes (${both.length} tools typed in both)`, fmt(plainMedian, 0), fmt(curatedMedian, 0), `${fmt(curatedMedian / Math.max(1, plainMedian), 2)}×`],
        ['all those results, bytes', fmt(total(plain), 0), fmt(total(curated), 0), `${fmt(total(curated) / Math.max(1, total(plain)), 2)}×`],
      ],
      verdicts: [
        { target: 'every curated tool returns a typed result against the mock', measured: `${curated.results.size}/${curated.calls}`, outcome: curated.results.size === curated.calls ? 'pass' : 'miss' },
        { target: 'curated tools/list smaller than as generated', measured: `${fmt(curated.listBytes / plain.listBytes, 2)}×`, outcome: curated.listBytes < plain.listBytes ? 'pass' : 'miss' },
      ],
      notes: [...plain.failures.map((failure) => `as generated: ${failure}`), ...curated.failures.map((failure) => `curated: ${failure}`)],
    };
  } finally {
    // npx runs Prism as a child of its own: end the whole group.
    process.kill(-prism.pid!, 'SIGTERM');
    rmSync(specDir, { recursive: true, force: true });
  }
}

async function serve(generateToolset: GenerateToolset, document: Json, config: Json, port: number, label: string): Promise<Served> {
  const generated = await generateToolset('github', document, config);
  const dir = writeLibrary(generated.files, `bench-curated-${label}-`);
  try {
    buildLibrary(dir);
    const exported = require(join(dir, 'dist/index.js')) as Record<string, ClassType>;
    process.env['GITHUB_BASE_URL'] = `http://127.0.0.1:${port}`;
    // The server's log says why an answer was refused (the field and the rule): kept for the notes.
    const logged: string[] = [];
    const keep = (message: string, fields?: Record<string, unknown>) => void logged.push(`${message} ${JSON.stringify(fields?.['errors'] ?? fields ?? {})}`);
    const server = buildServer({ name: `github-${label}`, version: '1', toolsets: generated.toolsets.map((t) => exported[t.className]!), logger: { info: () => undefined, warn: keep, error: keep } });
    const client = await connectToolset(server, { headers: { 'x-github-token': 'test-credential' } });
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
