import 'reflect-metadata';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ts from 'typescript';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { buildServer, type Logger } from '@toolsets/core';
import { apiModule, typedApi, ToolCallError, type JsonSchema } from '../../src';
import { freshIssues, tracker, TrackerToolset } from '../support/shop-toolsets';

const quiet: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** Type-checks `consumer.ts` beside `api.d.ts` (strict, as an app would), returning the compiler's messages. */
function typeErrors(dir: string, consumer: string): string[] {
  writeFileSync(join(dir, 'consumer.ts'), consumer);
  const program = ts.createProgram([join(dir, 'consumer.ts')], { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.CommonJS, types: [], skipLibCheck: false });
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
}

describe('api.d.ts and typedApi: the declarations code mode checks programs against, as a typed client outside the sandbox', () => {
  let dir: string;
  let client: Client;
  let connection: { close(): Promise<void> };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'toolsets-api-'));
    const definition = buildServer({ name: 'tracker', version: '1.0.0', toolsets: [TrackerToolset], logger: quiet });
    const tools = [...definition.catalog.tools.values()].map((tool) => ({ namespace: tool.toolset.name, name: tool.name, description: tool.descriptor.description, inputSchema: tool.descriptor.inputSchema as JsonSchema, outputSchema: tool.descriptor.outputSchema as JsonSchema }));
    writeFileSync(join(dir, 'api.d.ts'), apiModule(tools, "server 'tracker' 1.0.0"));
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    connection = await definition.connect(serverSide);
    client = new Client({ name: 'typed', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(clientSide);
    tracker.issues = freshIssues();
  });
  afterAll(async () => {
    await client.close();
    await connection.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('compiles code that calls the tools as typed functions, and refuses a wrong argument or an unknown field', () => {
    const good = `import type { Api, api } from './api';
declare const typed: Api;
export async function titles(): Promise<string[]> {
  const { issues } = await typed.tracker.list_issues({ state: 'open', limit: 2 });
  const one = await typed.tracker.get_issue({ number: 1 });
  const args: api.tracker.AddLabelArgs = { number: 1, label: 'x' };
  await typed.tracker.add_label(args);
  return [...issues.map((issue) => issue.title), 'error' in one ? one.detail : one.issue.title];
}
`;
    expect(typeErrors(dir, good)).toEqual([]);
    const bad = `import type { Api } from './api';
declare const typed: Api;
export async function wrong() {
  await typed.tracker.get_issue({ number: '1' });
  const { issues } = await typed.tracker.list_issues({ state: 'open' });
  return issues[0]!.author;
}
`;
    const errors = typeErrors(dir, bad);
    expect(errors).toEqual([expect.stringContaining("Type 'string' is not assignable to type 'number'"), expect.stringContaining("Property 'author' does not exist")]);
  });

  it('calls the server: results as values, a declared ToolError as a value, a refused call thrown', async () => {
    type Issues = { issues: { number: number; title: string }[] };
    const typed = await typedApi<{ tracker: { list_issues(args: object): Promise<Issues>; get_issue(args: object): Promise<{ error?: string }> } }>(client);
    expect((await typed.tracker.list_issues({ state: 'open', limit: 1 })).issues).toEqual([{ number: 3, title: 'Crash on save', labels: [] }]);
    expect(await typed.tracker.get_issue({ number: 404 })).toMatchObject({ error: 'not_found', detail: 'No issue 404.' });
    const refused = typed.tracker.list_issues({ state: 'sideways' });
    await expect(refused).rejects.toBeInstanceOf(ToolCallError);
    await expect(refused).rejects.toThrow(/Invalid arguments for tool 'list_issues'/);
  });
});
