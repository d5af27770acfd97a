import { readJson, readProjectConfiguration, type Tree } from '@nx/devkit';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { mcpGenerator } from '../../src/generators/mcp/generator';
import { openApiSyncGenerator } from '../../src/generators/openapi-sync/generator';
import { createWorkspaceTree } from '../support/workspace-tree';

const FIXTURE = join(__dirname, '../fixtures/mcp-upstream-server.cjs');
const command = `${process.execPath} ${FIXTURE} stdio`;
const root = 'libs/toolsets/weather';

describe('mcp generator', () => {
  let tree: Tree;
  beforeEach(() => {
    tree = createWorkspaceTree();
  });

  it('creates a toolset library from a live stdio server: its snapshot, its config and generated sources', async () => {
    await mcpGenerator(tree, { name: 'weather', command, skipInstall: true });
    expect(readProjectConfiguration(tree, '@toolsets/weather').tags).toEqual(['type:toolset']);
    expect(readJson(tree, `${root}/mcp.config.json`)).toEqual({ name: 'weather', source: { command: process.execPath, args: [FIXTURE, 'stdio'] }, tools: {} });
    expect(readJson(tree, `${root}/mcp.json`)).toMatchObject({ server: { name: 'weather-fixture', version: '1.0.0' }, era: 'legacy' });
    const toolset = tree.read(`${root}/src/generated/weather.toolset.ts`, 'utf-8')!;
    expect(toolset).toContain('export class WeatherToolset {');
    expect(toolset).toContain("from '@toolsets/mcp-upstream'");
    expect(toolset).toContain("origin: 'weather/get_forecast'");
    expect(tree.exists(`${root}/src/lib`)).toBe(false);
    expect(tree.read(`${root}/test/weather.tools.spec.ts`, 'utf-8')).toContain("import { WeatherToolset } from '../src';");
    expect(readJson(tree, 'package.json').dependencies['@toolsets/mcp-upstream']).toBe(JSON.parse(readFileSync(join(__dirname, '../../../../libs/mcp-upstream/package.json'), 'utf-8')).version);
  });

  it('records the names of the credentials\' variables, never their values', async () => {
    process.env['WEATHER_CHILD_SECRET'] = 'child-secret-2207';
    try {
      await mcpGenerator(tree, { name: 'weather', command, header: 'UPSTREAM_SECRET:WEATHER_CHILD_SECRET', skipInstall: true });
    } finally {
      delete process.env['WEATHER_CHILD_SECRET'];
    }
    expect(readJson(tree, `${root}/mcp.config.json`).secrets).toEqual({ UPSTREAM_SECRET: 'WEATHER_CHILD_SECRET' });
    for (const file of ['mcp.json', 'mcp.config.json', 'src/generated/weather.toolset.ts']) expect(tree.read(`${root}/${file}`, 'utf-8')).not.toContain('child-secret-2207');
  });

  it.each([
    [{ url: 'https://user:pass@mcp.example.com/mcp' }, '--url must not carry credentials'],
    [{ url: 'ftp://mcp.example.com' }, '--url=ftp://mcp.example.com must be an http or https URL.'],
    [{}, 'Say where the MCP server is: --url=<its streamable HTTP endpoint> or --command='],
    [{ command, header: 'authorization=TOKEN' }, '--header=authorization=TOKEN is not <header>:<ENVIRONMENT_VARIABLE>'],
    [{ command, header: 'authorization:WEATHER_UNSET_TOKEN' }, 'WEATHER_UNSET_TOKEN is not set: --header names it'],
    [{ command: `${process.execPath} -e process.exit(2)` }, 'Could not connect to the MCP server at'],
  ])('refuses %j before writing anything, saying what to fix', async (options, message) => {
    await expect(mcpGenerator(tree, { name: 'weather', skipInstall: true, ...options })).rejects.toThrow(message);
    expect(tree.exists(root)).toBe(false);
  });

  it('refuses a served name MCP clients would refuse, naming the config entry that fixes it', async () => {
    await expect(mcpGenerator(tree, { name: 'weather', command, prefix: 'a_very_long_prefix_for_every_tool_of_this_weather_server_x', skipInstall: true })).rejects.toThrow(
      /would be served as "a_very_long_prefix_for_every_tool_of_this_weather_server_x_get_forecast", which MCP clients refuse .* Give it a name in mcp.config.json: "tools": \{ "get_forecast": \{ "name": ".*" \} \}, or shorten "prefix"/,
    );
  });

  it('keeps the curation in mcp.config.json: nx sync regenerates from it, and stops at an entry naming no upstream tool', async () => {
    await mcpGenerator(tree, { name: 'weather', command, prefix: 'wx', exclude: 'crash', skipInstall: true });
    expect(tree.read(`${root}/src/generated/weather.toolset.ts`, 'utf-8')).toContain("name: 'wx_get_forecast'");
    expect(tree.read(`${root}/src/generated/weather.toolset.ts`, 'utf-8')).not.toContain("'crash'");
    expect(await openApiSyncGenerator(tree)).toEqual({});

    const config = readJson(tree, `${root}/mcp.config.json`);
    tree.write(`${root}/mcp.config.json`, JSON.stringify({ ...config, tools: { get_forecast: { name: 'forecast', arguments: { days: { value: 3 } } } } }));
    expect((await openApiSyncGenerator(tree)).outOfSyncMessage).toContain('@toolsets/weather');
    const toolset = tree.read(`${root}/src/generated/weather.toolset.ts`, 'utf-8')!;
    expect(toolset).toContain("name: 'forecast'");
    expect(toolset).toContain('days: 3');

    tree.write(`${root}/mcp.config.json`, JSON.stringify({ ...config, tools: { get_forcast: { name: 'forecast' } } }));
    await expect(openApiSyncGenerator(tree)).rejects.toThrow('mcp.config.json "tools"."get_forcast": the upstream has no tool of that name (renamed or removed upstream?). The closest is "get_forecast".');
  });
});
