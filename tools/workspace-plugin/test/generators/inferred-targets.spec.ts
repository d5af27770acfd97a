import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createNodesV2 } from '../../src/plugin/create-nodes.cjs';
import { APP_TAG, TOOLSET_TAG } from '../../src/utils/workspace';

describe('the targets the plugin infers', () => {
  let workspace: string;
  const write = (file: string, content: object) => {
    mkdirSync(join(workspace, file, '..'), { recursive: true });
    writeFileSync(join(workspace, file), JSON.stringify(content));
  };
  beforeAll(() => {
    workspace = mkdtempSync(join(tmpdir(), 'inferred-targets-'));
    // The tags as the generators write them (src/utils/workspace.ts).
    write('libs/toolsets/pets/project.json', { name: '@toolsets/pets', tags: [TOOLSET_TAG] });
    write('apps/pets-server/project.json', { name: 'pets-server', tags: [APP_TAG] });
    write('libs/plain/project.json', { name: 'plain', tags: ['scope:shared'] });
    write('libs/toolsets/pets/openapi.config.json', { name: 'pets', source: 'https://pets.example/openapi.json' });
    write('libs/toolsets/shop/package.json', { name: '@toolsets/shop' });
    write('libs/toolsets/shop/openapi.config.json', { name: 'shop' });
    // A config in a folder that is no project (a scratch copy a test left): nothing, or Nx refuses the graph.
    write('scratch/openapi.config.json', { name: 'scratch' });
    write('libs/toolsets/weather/project.json', { name: '@toolsets/weather', tags: [TOOLSET_TAG] });
    write('libs/toolsets/weather/mcp.config.json', { name: 'weather', source: { url: 'https://mcp.example.com/mcp' } });
    write('scratch-mcp/mcp.config.json', { name: 'scratch' });
  });
  afterAll(() => rmSync(workspace, { recursive: true, force: true }));

  it('gives a toolset and an app their contract, a generated library openapi-paths and openapi-measure (and openapi-refresh with a source URL), one from an MCP server mcp-refresh, and any other project or a folder that is no project nothing', async () => {
    const [pattern, create] = createNodesV2;
    expect(pattern).toBe('**/{project.json,openapi.config.json,mcp.config.json}');
    const files = ['libs/toolsets/pets/project.json', 'apps/pets-server/project.json', 'libs/plain/project.json', 'libs/toolsets/pets/openapi.config.json', 'libs/toolsets/shop/openapi.config.json', 'scratch/openapi.config.json', 'libs/toolsets/weather/mcp.config.json', 'scratch-mcp/mcp.config.json'];
    const results = await create(files, undefined, { workspaceRoot: workspace, nxJsonConfiguration: {} } as never);
    const targets = Object.fromEntries(results.map(([file, result]) => [file, Object.fromEntries(Object.entries(result.projects ?? {}).map(([root, project]) => [root, Object.keys(project.targets ?? {}).sort()]))]));
    const executorOf = (file: string, root: string) => results.find(([f]) => f === file)?.[1].projects?.[root]?.targets?.contract?.executor;
    expect([executorOf('libs/toolsets/pets/project.json', 'libs/toolsets/pets'), executorOf('apps/pets-server/project.json', 'apps/pets-server')]).toEqual(['@toolsets/workspace-plugin:contract', '@toolsets/workspace-plugin:app-contract']);
    expect(targets).toEqual({
      'libs/toolsets/pets/project.json': { 'libs/toolsets/pets': ['contract'] },
      'apps/pets-server/project.json': { 'apps/pets-server': ['contract'] },
      'libs/plain/project.json': {},
      'libs/toolsets/pets/openapi.config.json': { 'libs/toolsets/pets': ['openapi-measure', 'openapi-paths', 'openapi-refresh'] },
      'libs/toolsets/shop/openapi.config.json': { 'libs/toolsets/shop': ['openapi-measure', 'openapi-paths'] },
      'scratch/openapi.config.json': {},
      // A library generated from an upstream MCP server: its refresh.
      'libs/toolsets/weather/mcp.config.json': { 'libs/toolsets/weather': ['mcp-refresh'] },
      'scratch-mcp/mcp.config.json': {},
    });
  });
});
