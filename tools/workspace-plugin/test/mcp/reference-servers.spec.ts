import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { CallToolResult, Tool } from '@modelcontextprotocol/server';
import { buildServer, type ClassType } from '@toolsets/core';
import { closeUpstreams } from '@toolsets/mcp-upstream';
import { connectToolset, type ToolsetClient } from '@toolsets/testing';
import { Ajv } from 'ajv';
import { generateMcpToolset } from '../../src/mcp/generate-mcp-toolset';
import type { McpConfig } from '../../src/mcp/mcp-config';
import { readUpstream } from '../../src/mcp/upstream-snapshot';
import { loadGeneratedSources } from '../../src/openapi/load-generated';

// The official reference servers from npm (built on the v1 SDK, 2025 era), over stdio: generated,
// served and called through toolsets as a user would, every result checked against what toolsets
// advertises. Nobody here wrote them; what they send is what the generator and runtime must handle.
const serverMain = (name: string) => join(dirname(require.resolve(`@modelcontextprotocol/${name}/package.json`)), 'dist/index.js');
const scratch = mkdtempSync(join(tmpdir(), 'reference-servers-'));
const quiet = { info: () => undefined, warn: () => undefined, error: (message: string, fields?: unknown) => console.error(message, fields) };

interface Reference {
  server: string;
  args?: string[];
  /** Variables the child gets, by the app's variable holding each value. */
  secrets?: Record<string, string>;
  /** The calls a model would make, in order, with what to find in each result. */
  calls: [tool: string, args: Record<string, unknown>, expected?: (structured: Record<string, unknown>) => void][];
}

const file = (name: string) => join(scratch, 'files', name);
process.env['REFERENCE_MEMORY_FILE'] = join(scratch, 'memory.jsonl');

const references: Reference[] = [
  {
    server: 'server-memory',
    secrets: { MEMORY_FILE_PATH: 'REFERENCE_MEMORY_FILE' },
    calls: [
      ['create_entities', { entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote the first program'] }, { name: 'Engine', entityType: 'machine', observations: [] }] }],
      ['create_relations', { relations: [{ from: 'Ada', to: 'Engine', relationType: 'programmed' }] }],
      ['add_observations', { observations: [{ entityName: 'Ada', contents: ['corresponded with Babbage'] }] }],
      ['search_nodes', { query: 'Babbage' }, (result) => expect(JSON.stringify(result['data'])).toContain('Ada')],
      ['open_nodes', { names: ['Ada'] }],
      ['read_graph', {}, (result) => expect(JSON.stringify(result['data'])).toContain('programmed')],
      ['delete_observations', { deletions: [{ entityName: 'Ada', observations: ['wrote the first program'] }] }],
      ['delete_relations', { relations: [{ from: 'Ada', to: 'Engine', relationType: 'programmed' }] }],
      ['delete_entities', { entityNames: ['Engine'] }],
    ],
  },
  {
    server: 'server-filesystem',
    args: [scratch],
    calls: [
      ['list_allowed_directories', {}],
      ['create_directory', { path: join(scratch, 'files') }],
      ['write_file', { path: file('notes.txt'), content: 'first line\nsecond line\n' }],
      ['read_text_file', { path: file('notes.txt') }, (result) => expect(JSON.stringify(result['data'])).toContain('second line')],
      ['edit_file', { path: file('notes.txt'), edits: [{ oldText: 'second line', newText: 'edited line' }] }],
      ['read_multiple_files', { paths: [file('notes.txt')] }, (result) => expect(JSON.stringify(result['data'])).toContain('edited line')],
      ['get_file_info', { path: file('notes.txt') }],
      ['move_file', { source: file('notes.txt'), destination: file('moved.txt') }],
      ['list_directory', { path: join(scratch, 'files') }, (result) => expect(JSON.stringify(result['data'])).toContain('moved.txt')],
      ['list_directory_with_sizes', { path: join(scratch, 'files') }],
      ['directory_tree', { path: join(scratch, 'files') }],
      ['search_files', { path: scratch, pattern: '**/moved*' }],
    ],
  },
  {
    server: 'server-sequential-thinking',
    calls: [
      ['sequentialthinking', { thought: 'Split the task into two steps.', thoughtNumber: 1, totalThoughts: 2, nextThoughtNeeded: true }, (result) => expect(result['data']).toMatchObject({ thoughtNumber: 1, totalThoughts: 2, nextThoughtNeeded: true })],
      ['sequentialthinking', { thought: 'Both steps are done.', thoughtNumber: 2, totalThoughts: 2, nextThoughtNeeded: false }],
    ],
  },
];

afterAll(async () => {
  await closeUpstreams();
  rmSync(scratch, { recursive: true, force: true });
  delete process.env['REFERENCE_MEMORY_FILE'];
});

describe.each(references)('the reference $server, generated into a toolset and called through it', (reference) => {
  const source = { command: process.execPath, args: [serverMain(reference.server), ...(reference.args ?? [])] };
  const name = reference.server.replace(/^server-/, 'ref-');
  let served: ClassType;

  beforeAll(async () => {
    const values = Object.fromEntries(Object.entries(reference.secrets ?? {}).map(([child, variable]) => [child, process.env[variable]!]));
    const snapshot = await readUpstream({ source, env: values });
    const config: McpConfig = { name, source, ...(reference.secrets && { secrets: reference.secrets }) };
    const generated = generateMcpToolset(name, snapshot, config);
    served = (loadGeneratedSources(generated.files) as Record<string, ClassType>)[generated.className]!;
    expect(Object.keys(generated.toolNames).sort()).toEqual(snapshot.tools.map((tool) => tool.name).sort());
  });

  it.each(['modern', 'legacy'] as const)('answers every call of a session through a %s client, each result fitting what toolsets advertises', async (era) => {
    // Each session starts from an empty folder of files, as the first did.
    rmSync(join(scratch, 'files'), { recursive: true, force: true });
    const client: ToolsetClient = await connectToolset(buildServer({ name: 'app', version: '1', toolsets: [served], logger: quiet }), { era });
    const ajv = new Ajv({ strict: false });
    try {
      const tools = await client.listTools();
      for (const [tool, args, expected] of reference.calls) {
        const result = (await client.call(tool, args)) as CallToolResult;
        expect([tool, result.isError ? JSON.stringify(result.content) : 'ok']).toEqual([tool, 'ok']);
        const schema = (tools.find((candidate) => candidate.name === tool) as Tool).outputSchema!;
        const fits = ajv.validate(schema, result.structuredContent);
        expect([tool, fits ? 'fits' : ajv.errorsText()]).toEqual([tool, 'fits']);
        expected?.(result.structuredContent as Record<string, unknown>);
      }
    } finally {
      await client.close();
    }
  });
});
