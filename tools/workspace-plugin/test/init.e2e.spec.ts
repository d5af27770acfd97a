import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

interface Adoption {
  packFromClone(clone: string): string;
  readmeSteps(name: string, clone?: string): string[];
  run(line: string, cwd: string, extraEnv?: Record<string, string>): string;
}
const workspaceRoot = join(__dirname, '../../..');
const adoption = require(join(workspaceRoot, 'tools/build/adoption.cjs')) as Adoption;

/** The version the README names, and the one NOTES.md checked. */
const CREATE_NX_WORKSPACE = 'create-nx-workspace@23.2.1';

/**
 * README's "In an existing Nx workspace", followed as written on what `create-nx-workspace` really
 * makes (each preset starts from something different: a composite TypeScript 6 setup, an
 * integrated workspace without TypeScript, a package-based one), with the packages packed from a
 * fresh clone. Nothing here is hand-written workspace.
 */
describe('the workspace plugin in a real create-nx-workspace workspace, as the README says', () => {
  let root: string;
  let clone: string;

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'toolsets-adopt-'));
    clone = join(root, 'toolsets');
    adoption.packFromClone(clone);
  }, 600_000);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const createWorkspace = (preset: string) => {
    const name = `acme-${preset}`;
    adoption.run(`npx -y ${CREATE_NX_WORKSPACE} ${name} --preset=${preset} --nxCloud=skip --interactive=false`, root);
    return join(root, name);
  };
  const typescriptIn = (workspace: string) => JSON.parse(readFileSync(join(workspace, 'node_modules/typescript/package.json'), 'utf-8')).version as string;
  const changedFiles = (workspace: string) => execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: workspace, encoding: 'utf-8' });

  /** README's steps from `init` on, then its last line as a client runs it. */
  const followReadme = async (workspace: string, from = 0) => {
    const steps = adoption.readmeSteps('nx-workspace', clone);
    const serve = steps.pop()!;
    let output = '';
    for (const line of steps.slice(from)) output = adoption.run(line, workspace);
    expect(output).toContain('Successfully ran targets lint, typecheck, test, contract, build for 2 projects');
    expect(serve).toBe('node apps/weather-server/dist/main.js --stdio');
    const [command, ...args] = serve.split(' ');
    const client = new Client({ name: 'adopter', version: '0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StdioClientTransport({ command: command === 'node' ? process.execPath : command, args, cwd: workspace, stderr: 'pipe' }));
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['weather_echo']);
    expect((await client.callTool({ name: 'weather_echo', arguments: { text: 'hi' } })).structuredContent).toMatchObject({ text: 'hi' });
    await client.close();
  };

  it('--preset=ts (TypeScript 6, composite base config): every step passes and the app serves', async () => {
    const workspace = createWorkspace('ts');
    expect(typescriptIn(workspace)).toMatch(/^6\./);
    await followReadme(workspace);
    // The workspace keeps its TypeScript, and init added no baseUrl (TypeScript 6 refuses it).
    expect(typescriptIn(workspace)).toMatch(/^6\./);
    expect(JSON.parse(readFileSync(join(workspace, 'tsconfig.base.json'), 'utf-8')).compilerOptions).not.toHaveProperty('baseUrl');
  }, 900_000);

  it('--preset=apps (no TypeScript yet): every step passes with the TypeScript init installs', async () => {
    const workspace = createWorkspace('apps');
    expect(existsSync(join(workspace, 'node_modules/typescript'))).toBe(false);
    await followReadme(workspace);
    expect(typescriptIn(workspace)).toMatch(/^5\.9\./);
  }, 900_000);

  it('--preset=npm: when init cannot install, it puts back what it wrote; run again, every step passes', async () => {
    const workspace = createWorkspace('npm');
    const [installPlugin, init] = adoption.readmeSteps('nx-workspace', clone);
    adoption.run(installPlugin, workspace);
    const before = changedFiles(workspace);

    // The registry unreachable, and no cache to fall back on: npm install fails after init wrote its files.
    const offline = { npm_config_registry: 'http://127.0.0.1:9/', npm_config_cache: join(root, 'empty-npm-cache'), npm_config_fetch_retries: '0' };
    let failure: (Error & { output?: string }) | undefined;
    try {
      adoption.run(init, workspace, offline);
    } catch (error) {
      failure = error as Error & { output?: string };
    }
    expect(failure?.output).toContain('init stopped: installing the packages it added failed');
    const undone = /It undid what it wrote, so the workspace is as it was: ([^\n]*?)\. Fix/.exec(failure?.output ?? '')?.[1].split(', ');
    expect(undone).toEqual(expect.arrayContaining(['tsconfig.base.json', 'jest.preset.js', 'nx.json', 'package.json', 'tools/build/build-project.cjs']));
    expect(changedFiles(workspace)).toBe(before);
    expect(existsSync(join(workspace, 'tools/build'))).toBe(false);

    await followReadme(workspace, 1);
  }, 900_000);
});
