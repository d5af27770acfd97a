import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

interface Adoption {
  createNxWorkspace(version: string, preset: string, name: string, parent: string): string;
  packedClone(): { clone: string; packs: string };
  readmeSteps(name: string, clone?: string): string[];
  run(line: string, cwd: string, extraEnv?: Record<string, string>): string;
}
const workspaceRoot = join(__dirname, '../../../..');
export const adoption = require(join(workspaceRoot, 'tools/test-support/adoption.cjs')) as Adoption;

/** The version the README names, and the one NOTES.md checked. */
const CREATE_NX_WORKSPACE = '23.2.1';

/**
 * README's "In an existing Nx workspace", followed as written on what `create-nx-workspace` really
 * makes, with the packages `adoption-packs` packed from a fresh clone. One preset a spec file, so
 * the presets run side by side.
 *
 * `isolatedPlugins: false` runs that workspace's Nx with its plugins in its own process
 * (`NX_ISOLATE_PLUGINS=false`) instead of a worker process a plugin, each loading Nx anew: about
 * 19 CPU-s a preset (56.7 CPU-s over 69 plugin workers in one run of all three). The ts preset keeps
 * Nx's default, so our plugin is still loaded in an isolated worker, as in a newcomer's workspace,
 * by the preset that runs every target.
 */
export function adoptionWorkspace(preset: string, { isolatedPlugins = true }: { isolatedPlugins?: boolean } = {}) {
  const nxEnv: Record<string, string> = isolatedPlugins ? {} : { NX_ISOLATE_PLUGINS: 'false' };
  /** adoption.run, with this workspace's Nx settings. */
  const run = (line: string, cwd: string, extraEnv: Record<string, string> = {}) => adoption.run(line, cwd, { ...nxEnv, ...extraEnv });
  let root = '';
  let clone = '';
  const setUp = () => {
    root = mkdtempSync(join(tmpdir(), `toolsets-adopt-${preset}-`));
    clone = adoption.packedClone().clone;
  };
  const tearDown = () => rmSync(root, { recursive: true, force: true });

  const createWorkspace = () => adoption.createNxWorkspace(CREATE_NX_WORKSPACE, preset, `acme-${preset}`, root);

  /**
   * README's steps from `init` on, then its last line as a client runs it. `checks: 'build'` runs
   * only typecheck and build where README runs every target: the other presets take the same
   * generated projects through init, the generators, the install, the build and a served call,
   * while the ts preset alone runs lint, test and contract on them (about a minute of CPU each).
   */
  const followReadme = async (workspace: string, from = 0, checks: 'all' | 'build' = 'all') => {
    const steps = adoption.readmeSteps('nx-workspace', clone);
    const serve = steps.pop()!;
    const everyTarget = 'npx nx run-many -t lint typecheck test contract build';
    expect(steps).toContain(everyTarget);
    let output = '';
    for (const line of steps.slice(from)) output = run(checks === 'build' && line === everyTarget ? 'npx nx run-many -t typecheck build' : line, workspace);
    expect(output).toContain(checks === 'build' ? 'Successfully ran targets typecheck, build for 2 projects' : 'Successfully ran targets lint, typecheck, test, contract, build for 2 projects');
    expect(serve).toBe('node apps/weather-server/dist/main.js --stdio');
    const [command, ...args] = serve.split(' ');
    const client = new Client({ name: 'adopter', version: '0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StdioClientTransport({ command: command === 'node' ? process.execPath : command, args, cwd: workspace, stderr: 'pipe' }));
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['weather_echo']);
    expect((await client.callTool({ name: 'weather_echo', arguments: { text: 'hi' } })).structuredContent).toMatchObject({ text: 'hi' });
    await client.close();
  };

  return {
    setUp,
    tearDown,
    run,
    createWorkspace,
    followReadme,
    root: () => root,
    steps: () => adoption.readmeSteps('nx-workspace', clone),
  };
}

export const typescriptIn = (workspace: string) => JSON.parse(readFileSync(join(workspace, 'node_modules/typescript/package.json'), 'utf-8')).version as string;
export const changedFiles = (workspace: string) => execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: workspace, encoding: 'utf-8' });
