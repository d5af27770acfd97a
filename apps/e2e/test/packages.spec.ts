import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { startServerProcess, workspaceRoot } from './support/server-process';

interface Adoption {
  cleanEnvironment(extra?: Record<string, string>): Record<string, string>;
  consumerBlocks(): Record<string, { lang: string; code: string }>;
  packedClone(): { clone: string; packs: string; nxCache: Record<string, string> };
  readmeSteps(name: string, clone?: string): string[];
  run(line: string, cwd: string, extraEnv?: Record<string, string>): string;
}
const adoption = require(join(workspaceRoot, 'tools/test-support/adoption.cjs')) as Adoption;

const WITH_TESTING = `import 'reflect-metadata';
import { connectToolset } from '@toolsets/testing';
import { WeatherToolset } from './weather';

async function main(): Promise<void> {
  const toolset = await connectToolset(WeatherToolset, { era: 'legacy' });
  const result = await toolset.call('forecast', { city: 'Lisbon' });
  process.stdout.write(JSON.stringify(result.structuredContent));
  await toolset.close();
}
void main();
`;

const BROKEN = `import { Field, Result, Tool, ToolResult, Toolset } from '@toolsets/core';

@Result({ description: 'A count.' })
export class CountResult extends ToolResult {
  @Field()
  count!: number;
}

@Toolset()
export class BrokenToolset {
  @Tool({ description: 'Count.', returns: CountResult })
  count() {
    return { message: 'no count here' };
  }
}
`;

/** A command's combined output and exit status, without blocking the test process. */
function spawnAsync(command: string, args: readonly string[], options: { cwd: string; env: Record<string, string> }): Promise<{ output: string; status: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk));
    child.on('error', reject);
    child.on('close', (status) => resolve({ output, status }));
  });
}

/** The TypeScript lines the README promises. `npm install -D typescript` gives one of them, which README's build step compiles with. */
const TYPESCRIPTS = ['5.9.3', '6.0.3', '7.0.2'];

/**
 * README's "Using toolsets in your own repository", followed as written: the packages packed from
 * a fresh clone, installed into a new project outside this workspace (from the registry, through
 * npm's cache), compiled with `tsc` against the published declarations without `skipLibCheck`, and
 * served over stdio and HTTP on both supported Node lines.
 */
describe('the packages, packed from a fresh clone and used in a plain TypeScript project as the README says', () => {
  let root: string;
  let clone: string;
  let packs: string;
  let cloneNx: Record<string, string>;
  let project: string;
  const installs: string[] = [];

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'toolsets-consumer-'));
    // Packed once per run by the adoption-packs target, which this target depends on.
    ({ clone, packs, nxCache: cloneNx } = adoption.packedClone());
    project = join(root, 'weather');
    mkdirSync(project);
    for (const line of adoption.readmeSteps('plain-project', clone)) installs.push(adoption.run(line, project));
    const blocks = adoption.consumerBlocks();
    for (const file of ['tsconfig.json', 'src/weather.ts', 'src/main.ts']) {
      mkdirSync(dirname(join(project, file)), { recursive: true });
      writeFileSync(join(project, file), `${blocks[file].code}\n`);
    }
    writeFileSync(join(project, 'src/with-testing.ts'), WITH_TESTING);
  }, 600_000);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const tarball = (prefix: string) => join(packs, readdirSync(packs).find((file) => file.startsWith(prefix))!);
  const contents = (prefix: string) => execFileSync('tar', ['-tzf', tarball(prefix)], { encoding: 'utf-8' }).trim().split('\n').sort();

  it('packs all six packages from a fresh clone, with their built files and nothing else', () => {
    expect(readdirSync(packs).sort()).toEqual([
      expect.stringMatching(/^toolsets-code-mode-/),
      expect.stringMatching(/^toolsets-core-\d+\.\d+\.\d+\.tgz$/),
      expect.stringMatching(/^toolsets-mcp-upstream-/),
      expect.stringMatching(/^toolsets-openapi-/),
      expect.stringMatching(/^toolsets-testing-/),
      expect.stringMatching(/^toolsets-workspace-plugin-/),
    ]);
    for (const lib of ['toolsets-core-', 'toolsets-testing-', 'toolsets-openapi-', 'toolsets-mcp-upstream-', 'toolsets-code-mode-']) {
      const files = contents(lib);
      expect(files).toEqual(expect.arrayContaining(['package/dist/index.js', 'package/dist/index.d.ts', 'package/README.md', 'package/package.json']));
      expect(files.filter((file) => !/^package\/(dist\/.*\.(js|d\.ts)|README\.md|package\.json)$/.test(file))).toEqual([]);
    }
    const plugin = contents('toolsets-workspace-plugin-');
    expect(plugin).toEqual(expect.arrayContaining(['package/src/index.js', 'package/generators.json', 'package/versions.json', 'package/build/build-project.cjs', 'package/build/build-views.cjs', 'package/build/dev-app.cjs', 'package/build/dev-standby.cjs', 'package/src/generators/init/generator.js']));
    expect(plugin.filter((file) => /\.ts$/.test(file) && !/\.d\.ts$|__tmpl__$|\/files\//.test(file))).toEqual([]);
    const manifest = JSON.parse(execFileSync('tar', ['-xzOf', tarball('toolsets-workspace-plugin-'), 'package/package.json'], { encoding: 'utf-8' }));
    expect(manifest.dependencies).toEqual(expect.objectContaining({ '@nx/devkit': expect.any(String), yaml: expect.any(String), swagger2openapi: expect.any(String) }));
    // Core is a peer the OpenAPI generators read their curation rules from (`@toolsets/core/curation-rules`): optional, since init installs it.
    expect(manifest.peerDependencies).toEqual({ '@toolsets/core': `^${JSON.parse(readFileSync(join(workspaceRoot, 'libs/core/package.json'), 'utf-8')).version}`, nx: expect.any(String), typescript: '>=5.9.3 <7' });
    expect(manifest.peerDependenciesMeta).toEqual({ '@toolsets/core': { optional: true } });
  });

  it('refuses to pack a package whose built files are missing, and the plugin from its source folder', () => {
    const refused = (dir: string) => {
      const result = spawnSync('npm', ['pack', dir, '--dry-run'], { cwd: clone, env: adoption.cleanEnvironment(cloneNx), encoding: 'utf-8' });
      expect(result.status).not.toBe(0);
      return result.stderr;
    };
    expect(refused('./tools/workspace-plugin')).toContain('npm pack tools/workspace-plugin: refused, this folder is the source of @toolsets/workspace-plugin; the package is assembled in tools/workspace-plugin/dist');
    const manifestFile = join(clone, 'libs/openapi/package.json');
    const manifest = readFileSync(manifestFile, 'utf-8');
    writeFileSync(manifestFile, manifest.replace('"main": "./dist/index.js"', '"main": "./dist/missing.js"'));
    try {
      expect(refused('./libs/openapi')).toContain('npm pack libs/openapi: refused, dist/missing.js is missing after the build');
    } finally {
      writeFileSync(manifestFile, manifest);
    }
  });

  it('nx release publish packs the plugin from its assembled dist (the libraries publish from their folders, as npm pack above)', () => {
    const output = adoption.run('npx nx run @toolsets/workspace-plugin:nx-release-publish --dryRun', clone, cloneNx);
    expect(output).toMatch(/📦 {2}@toolsets\/workspace-plugin@/);
    expect(output).toContain('versions.json');
    expect(output).not.toMatch(/Skipped|(?<!\.d)\.ts\s*$/m);
  }, 300_000);

  it('installs as written, with no engine or peer warning', () => {
    expect(installs).toHaveLength(3);
    for (const output of installs) expect(output).not.toMatch(/EBADENGINE|ERESOLVE|peer dep/i);
  });

  /** `tsc --noEmit` in the project with TypeScript `version`, each option set in turn; started for every version at once. */
  const checkWith = async (version: string) => {
    // README's nodenext, and node16 too, which older configurations use (on the native TypeScript 7
    // only: without skipLibCheck each check takes 30 s or more on TypeScript 5 and 6).
    const node16 = version.startsWith('7.') ? [['--module', 'node16', '--moduleResolution', 'node16']] : [];
    const results: { options: string; output: string; status: number | null }[] = [];
    for (const options of [[], ...node16]) {
      const run = await spawnAsync('npx', ['-y', '-p', `typescript@${version}`, 'tsc', '-p', '.', '--noEmit', ...options], { cwd: project, env: adoption.cleanEnvironment() });
      results.push({ options: options.join(' '), ...run });
    }
    return results;
  };
  // The three compilers are single-threaded: checked side by side, they take the time of the slowest.
  let checks: Map<string, ReturnType<typeof checkWith>> | undefined;
  const checked = (version: string) => (checks ??= new Map(TYPESCRIPTS.map((v) => [v, checkWith(v)]))).get(version)!;

  it.each(TYPESCRIPTS)('compiles with TypeScript %s against the published declarations, without skipLibCheck', async (version) => {
    expect(JSON.parse(readFileSync(join(project, 'tsconfig.json'), 'utf-8')).compilerOptions.skipLibCheck).toBeUndefined();
    for (const result of await checked(version)) {
      expect([result.options, result.output]).toEqual([result.options, '']);
      expect(result.status).toBe(0);
    }
  }, 600_000);

  it('builds and serves as written, over stdio on Node 20 and 22 and over HTTP, with typed results', async () => {
    const [build, serve] = adoption.readmeSteps('build-and-serve');
    expect(adoption.run(build, project).trim()).toBe('');
    expect(serve).toBe('node dist/main.js --stdio');
    const [command, ...args] = serve.split(' ');
    for (const node of [[process.execPath], ['npx', '-y', '-p', 'node@22', '--', command]]) {
      const stdio = new Client({ name: 'consumer', version: '0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
      await stdio.connect(new StdioClientTransport({ command: node[0], args: [...node.slice(1), ...args], cwd: project, stderr: 'pipe' }));
      expect(stdio.getServerVersion()).toMatchObject({ name: 'weather' });
      expect((await stdio.callTool({ name: 'forecast', arguments: { city: 'Lisbon', days: 2 } })).structuredContent).toEqual({ message: 'Lisbon: 21 °C in 2 day(s).', celsius: 21 });
      expect((await stdio.callTool({ name: 'forecast', arguments: { city: 'Atlantis' } })).structuredContent).toEqual({ error: 'not_found', detail: 'No such city.' });
      expect((await stdio.callTool({ name: 'forecast', arguments: { city: 'Oslo', days: 9 } })).isError).toBe(true);
      await stdio.close();
    }
    const node22 = execFileSync('npx', ['-y', '-p', 'node@22', '--', 'node', '--version'], { cwd: project, env: adoption.cleanEnvironment(), encoding: 'utf-8' }).trim();
    expect(node22).toMatch(/^v22\./);

    const app = await startServerProcess(join(project, 'dist/main.js'), { DRAIN_DELAY_MS: '0' }, project);
    try {
      const http = new Client({ name: 'consumer-http', version: '0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
      await http.connect(new StreamableHTTPClientTransport(new URL(`${app.origin}/mcp`)));
      const [tool] = (await http.listTools()).tools;
      expect(tool.outputSchema).toMatchObject({ title: 'ForecastResult', anyOf: [{ title: 'ForecastResult' }, { title: 'ToolError' }] });
      expect((await http.callTool({ name: 'forecast', arguments: { city: 'Oslo' } })).structuredContent).toEqual({ message: 'Oslo: 21 °C in 1 day(s).', celsius: 21 });
      await http.close();
    } finally {
      await app.stop();
    }
  }, 120_000);

  it('tests it with @toolsets/testing', () => {
    expect(execFileSync(process.execPath, [join(project, 'dist/with-testing.js')], { cwd: project, encoding: 'utf-8' })).toBe('{"message":"Lisbon: 21 °C in 1 day(s).","celsius":21}');
  });

  it('makes tsc reject a tool whose return type breaks the contract there too', () => {
    writeFileSync(join(project, 'src/broken.ts'), BROKEN);
    try {
      const run = spawnSync(process.execPath, [join(project, 'node_modules/typescript/bin/tsc'), '-p', '.', '--noEmit', '--pretty', 'false'], { cwd: project, encoding: 'utf-8' });
      expect(run.status).not.toBe(0);
      expect(run.stdout).toMatch(/src\/broken\.ts\(\d+,\d+\): error TS\d+: .*'count'/s);
    } finally {
      rmSync(join(project, 'src/broken.ts'));
    }
  });

  it('nx release --dry-run versions the packages together and previews the changelog, writing nothing', () => {
    const status = () => execFileSync('git', ['status', '--porcelain'], { cwd: workspaceRoot, encoding: 'utf-8' });
    const before = status();
    const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(NX_|JEST_)/.test(key)));
    const run = spawnSync(process.execPath, [join(workspaceRoot, 'node_modules/nx/dist/bin/nx.js'), 'release', '--dry-run'], {
      cwd: workspaceRoot,
      env: { ...env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false', NO_COLOR: '1' },
      encoding: 'utf-8',
    });
    const output = run.stdout + run.stderr;
    expect(run.status).toBe(0);
    expect(output).toMatch(/@toolsets\/core .*New version (\S+) written to manifest: libs\/core\/package.json/);
    for (const name of ['testing', 'openapi', 'mcp-upstream', 'code-mode', 'workspace-plugin']) expect(output).toMatch(new RegExp(`@toolsets/${name} .*because the project is a member of a fixed release group containing @toolsets/core`));
    expect(output).toContain('Previewing an entry in CHANGELOG.md');
    expect(output).toContain('NOTE: The "dryRun" flag means no changes were made.');
    expect(status()).toBe(before);
  }, 120_000);
});
