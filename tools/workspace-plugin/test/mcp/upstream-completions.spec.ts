import 'reflect-metadata';
import { buildServer, type ClassType } from '@toolsets/core';
import { connectToolset } from '@toolsets/testing';
import { generateMcpToolset } from '../../src/mcp/generate-mcp-toolset';
import type { UpstreamSnapshot } from '../../src/mcp/upstream-snapshot';
import { loadGeneratedSources } from '../../src/openapi/load-generated';

/** An upstream that completes arguments, with a tool whose name is the library's own completion method. */
const snapshot: UpstreamSnapshot = {
  server: { name: 'names-fixture', version: '1.0.0' },
  protocolVersion: '2025-11-25',
  era: 'legacy',
  tools: [{ name: 'completeUpstream', description: 'A tool of that name.', inputSchema: { type: 'object' } }],
  prompts: [{ name: 'greet', description: 'Greets someone.', arguments: [{ name: 'who', required: true }] }],
  resources: [],
  resourceTemplates: [],
  completions: true,
};

describe('a library generated from an upstream that completes arguments', () => {
  it("keeps its completion method apart from an upstream tool of the same name, and still serves the tool under the upstream's name", async () => {
    const generated = generateMcpToolset('names', snapshot, { name: 'names', source: { command: 'node', args: ['upstream.js'] } });
    const toolset = generated.files['src/generated/names.toolset.ts']!;
    expect(toolset).toContain('completeUpstream(ref: { prompt: string } | { uriTemplate: string }');
    expect(toolset).toMatch(/completeUpstream_\(/);
    expect(generated.files['src/generated/dtos.ts']).toContain("toolset.completeUpstream({ prompt: 'greet' }, 'who', value, args)");
    const served = (loadGeneratedSources(generated.files) as Record<string, ClassType>)[generated.className]!;
    const client = await connectToolset(buildServer({ name: 'app', version: '1', toolsets: [served], logger: { info: () => undefined, warn: () => undefined, error: () => undefined } }));
    try {
      expect((await client.listTools()).map((tool) => tool.name)).toEqual(['completeUpstream']);
    } finally {
      await client.close();
    }
  });
});
