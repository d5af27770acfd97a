import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildServer, type ClassType } from '@toolsets/core';
import { generateToolset, type OpenApiConfig } from '../../src/openapi/generate-toolset';
import { loadGeneratedSources } from '../../src/openapi/load-generated';

const workspaceRoot = join(__dirname, '../../../..');

/** The config docs/openapi.md shows under "Curating a generated catalog": the first json block there. */
function documentedCuration(): OpenApiConfig & { name: string } {
  const text = readFileSync(join(workspaceRoot, 'docs/openapi.md'), 'utf-8');
  const section = text.slice(text.indexOf('## Curating a generated catalog'));
  const block = /```json\n([\s\S]*?)\n```/.exec(section);
  if (!block) throw new Error('docs/openapi.md: no json block under "Curating a generated catalog"');
  return JSON.parse(block[1]!);
}

describe("docs/openapi.md's curation example", () => {
  it("generates against GitHub's own document (@octokit/openapi), passes the gate, and serves what the document says it does", async () => {
    const config = documentedCuration();
    const github = JSON.parse(readFileSync(require.resolve('@octokit/openapi/generated/api.github.com.json'), 'utf-8'));
    const generated = await generateToolset(config.name, github, config);
    expect(generated.toolNames).toEqual(['list_issues', 'issues_create', 'add_labels']);
    const { GithubToolset } = loadGeneratedSources(generated.files) as { GithubToolset: ClassType };
    const server = buildServer({ name: 'github', version: '1', toolsets: [GithubToolset] });
    const listIssues = server.catalog.tools.get('list_issues')!;
    expect(listIssues.descriptor).toMatchObject({ title: 'List issues', annotations: { readOnlyHint: true, openWorldHint: false } });
    expect(listIssues.requiredScopes).toEqual(['repo:read']);
    const input = listIssues.descriptor.inputSchema as { properties: Record<string, Record<string, unknown>>; required?: string[] };
    expect(input.properties['per_page']).toBeUndefined();
    expect(input.properties['owner']).toBeUndefined();
    expect(input.properties['org']).toMatchObject({ type: 'string', description: 'The organisation, e.g. octo-org.', examples: ['octo-org'] });
    expect(input.properties['state']).toMatchObject({ enum: ['open', 'closed'], default: 'open' });
    expect(input.properties['labels']).toMatchObject({ pattern: '^[^,]+(,[^,]+)*$', maxLength: 200 });
    expect(input.required).toEqual(['org', 'repo']);
    // The answer keeps the curated fields only: an issue's number, title, state, author, labels and comment count.
    const source = generated.files['src/generated/github.toolset.ts']!;
    expect(source).toContain("'per_page': 50");
    expect(source).toContain("keep: { number: true, title: true, state: true, user: { login: true }, labels: { name: true }, comments: true }");
    const output = JSON.stringify(listIssues.descriptor.outputSchema);
    for (const gone of ['"body"', 'node_id', 'avatar_url', 'reactions']) expect(output).not.toContain(gone);
  }, 60_000);

  it('docs/examples/github.openapi.config.json (40 tools for a coding agent) still fits the document: every entry names an operation, argument and field GitHub has', async () => {
    const config = JSON.parse(readFileSync(join(workspaceRoot, 'docs/examples/github.openapi.config.json'), 'utf-8'));
    const github = JSON.parse(readFileSync(require.resolve('@octokit/openapi/generated/api.github.com.json'), 'utf-8'));
    const generated = await generateToolset(config.name, github, config);
    expect(generated.toolNames).toHaveLength(40);
    const { GithubToolset } = loadGeneratedSources(generated.files) as { GithubToolset: ClassType };
    const server = buildServer({ name: 'github', version: '1', toolsets: [GithubToolset] });
    const paged = [...server.catalog.tools.values()].filter((tool) => JSON.stringify(tool.descriptor.inputSchema).includes('"page"'));
    expect(paged.length).toBeGreaterThan(10);
    // Pagination is the API's business: the page size is fixed, only the page is the model's.
    for (const tool of paged) expect((tool.descriptor.inputSchema as { properties: object }).properties).not.toHaveProperty('per_page');
  }, 60_000);
});
