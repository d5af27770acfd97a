import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withRecordedMeta } from '../../src/contract/catalog-entries';
import { serializeSnapshot, snapshotOf } from '../../src/contract/snapshot';
import mcpRefreshExecutor from '../../src/executors/mcp-refresh/executor';
import { generateMcpToolset } from '../../src/mcp/generate-mcp-toolset';
import { readUpstream } from '../../src/mcp/upstream-snapshot';
import { gatedCatalogInChild } from '../../src/openapi/load-generated';
import { capturedConsole, executorContext, workspaceRoot } from '../support/executor-context';

const FIXTURE = join(__dirname, '../fixtures/mcp-upstream-server.cjs');
const before = { command: process.execPath, args: [FIXTURE, 'stdio'] };
/** The same server after its team changed its tools: a new required argument, a new tool, a new output field. */
const after = { command: process.execPath, args: [FIXTURE, 'stdio', 'changed'] };

describe('the mcp-refresh target', () => {
  const { out, err } = capturedConsole();
  let workspace: string;
  let library: string;
  const run = (check = false) => mcpRefreshExecutor({ check }, executorContext('@toolsets/weather', 'libs/toolsets/weather', workspace));
  const file = (name: string) => readFileSync(join(library, name), 'utf-8');
  const setSource = (source: typeof before) => writeFileSync(join(library, 'mcp.config.json'), JSON.stringify({ name: 'weather', source, tools: {} }));

  beforeAll(async () => {
    // A workspace of its own whose node_modules are this one's: the catalog is gated by the real core.
    workspace = mkdtempSync(join(tmpdir(), 'mcp-refresh-'));
    symlinkSync(join(workspaceRoot, 'node_modules'), join(workspace, 'node_modules'));
    library = join(workspace, 'libs/toolsets/weather');
    mkdirSync(library, { recursive: true });
    const snapshot = await readUpstream({ source: before });
    const generated = generateMcpToolset('weather', snapshot, { name: 'weather', source: before });
    writeFileSync(join(library, 'mcp.json'), `${JSON.stringify(snapshot, null, 2)}\n`);
    for (const [path, content] of Object.entries(generated.files)) {
      mkdirSync(join(library, path, '..'), { recursive: true });
      writeFileSync(join(library, path), content);
    }
    writeFileSync(join(library, 'package.json'), JSON.stringify({ name: '@toolsets/weather', version: '1.0.0' }));
    const tools = gatedCatalogInChild(workspace, generated.files, 'weather').map((entry) => withRecordedMeta(entry));
    writeFileSync(join(library, 'contract.json'), serializeSnapshot(snapshotOf('1.0.0', tools)));
  });
  afterAll(() => rmSync(workspace, { recursive: true, force: true }));

  it('says nothing changed when the server offers what mcp.json records', async () => {
    setSource(before);
    await expect(run()).resolves.toEqual({ success: true });
    expect(out.join('\n')).toContain('libs/toolsets/weather/mcp.json matches');
  });

  it('classifies what changed upstream, and with --check writes nothing and fails', async () => {
    setSource(after);
    const snapshot = file('mcp.json');
    await expect(run(true)).resolves.toEqual({ success: false });
    const printed = out.join('\n');
    expect(printed).toContain('5 changes to the catalog since contract.json (version 1.0.0): 1 breaking, 4 safe.');
    expect(printed).toContain('get_forecast: input /properties/units added (required) (input-required-property-added, breaking)');
    expect(printed).toContain('get_alerts: tool added (tool-added, safe)');
    expect(printed).toContain('get_forecast: output /anyOf/0/properties/data/properties/humidity added (optional) (output-property-added, safe)');
    expect(err.join('\n')).toContain('--check: nothing written.');
    expect(file('mcp.json')).toBe(snapshot);
  });

  it('refuses a breaking change the package version does not cover, writing nothing', async () => {
    setSource(after);
    const snapshot = file('mcp.json');
    await expect(run()).resolves.toEqual({ success: false });
    expect(err.join('\n')).toContain('Not refreshed, nothing written: the upstream made 1 breaking change for clients.');
    expect(file('mcp.json')).toBe(snapshot);
    expect(file('src/generated/weather.toolset.ts')).not.toContain('get_alerts');
  });

  it('takes the new tools once the version is bumped: mcp.json and the generated code rewritten', async () => {
    setSource(after);
    writeFileSync(join(library, 'package.json'), JSON.stringify({ name: '@toolsets/weather', version: '2.0.0' }));
    await expect(run()).resolves.toEqual({ success: true });
    expect(JSON.parse(file('mcp.json')).server.version).toBe('1.1.0');
    expect(file('src/generated/weather.toolset.ts')).toContain("name: 'get_alerts'");
    expect(file('src/generated/dtos.ts')).toContain('humidity');
    expect(out.join('\n')).toContain('nx run @toolsets/weather:contract --update');
    expect(existsSync(join(library, 'src/generated/weather.toolset.ts'))).toBe(true);
  });
});
