import { generateMcpToolset } from '../../src/mcp/generate-mcp-toolset';
import type { UpstreamSnapshot } from '../../src/mcp/upstream-snapshot';

/** A snapshot as readUpstream records one: a tool, a prompt, a resource and two templates (one without variables). */
const snapshot: UpstreamSnapshot = {
  server: { name: 'docs', version: '1.0.0' },
  protocolVersion: '2025-11-25',
  era: 'legacy',
  tools: [{ name: 'search', description: 'Search the docs.', inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } }],
  prompts: [{ name: 'summarize page', description: 'Summarize one page.', arguments: [{ name: 'page', required: true }] }],
  resources: [{ uri: 'docs://index', name: 'index' }],
  resourceTemplates: [
    { uriTemplate: 'docs://pages/{slug}', name: 'page', description: 'One page.' },
    { uriTemplate: 'docs://all', name: 'all', description: 'Everything.' },
  ],
};
const source = { command: 'node', args: ['docs.js'] };

describe("an upstream's prompts, resources and templates in the generated library", () => {
  it('serves each as a member that asks the upstream, under a name clients accept, and says what it left out', () => {
    const generated = generateMcpToolset('docs', snapshot, { name: 'docs', source });
    const toolset = generated.files['src/generated/docs.toolset.ts']!;
    expect(toolset).toContain("@Prompt({ name: 'summarize_page', title: 'summarize page', description: 'Summarize one page.', args: SummarizePagePromptArgs })");
    expect(toolset).toContain("return this.upstream.getPrompt('summarize page', { page: args['page'] }, this.context, this.logger);");
    // The resource gives no description: its name says what it is, as the gate requires one.
    expect(toolset).toContain("@Resource({ uri: 'docs://index', name: 'index', description: 'The resource index of the upstream MCP server (it gives no description).' })");
    expect(toolset).toContain("return this.upstream.readTemplate('docs://pages/{slug}', { slug: args['slug'] }, this.context, this.logger);");
    expect(toolset).not.toContain('docs://all');
    expect(generated.warnings).toContain('resource template "docs://all": it has no variables, so it is left out (the upstream lists its resources itself)');
    expect(generated.files['src/generated/dtos.ts']).toMatch(/export class SummarizePagePromptArgs \{[\s\S]*page!: string;/);
  });

  it('leaves them out with "prompts": false and "resources": false', () => {
    const toolset = generateMcpToolset('docs', snapshot, { name: 'docs', source, prompts: false, resources: false }).files['src/generated/docs.toolset.ts']!;
    expect(toolset).not.toMatch(/@Prompt|@Resource|@ResourceTemplate/);
    expect(toolset).toContain("import { LOGGER, RequestContext, Tool, ToolError, Toolset, type Logger, type ResultWithContent } from '@toolsets/core';");
  });
});
