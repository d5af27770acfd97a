import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const workspaceRoot = join(__dirname, '../../..');
const rootPackage = JSON.parse(readFileSync(join(workspaceRoot, 'package.json'), 'utf-8')) as { devDependencies: Record<string, string> };

/**
 * Adopting toolsets in another Nx workspace: the plugin, core and testing packed as tarballs, a
 * minimal Nx workspace in a temporary folder (packages from the registry through npm's cache),
 * `init`, then the `toolset` and `app` generators, then every target, then the app over stdio.
 */
describe('@toolsets/workspace-plugin in another Nx workspace', () => {
  let workspace: string;
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(NX_|JEST_)/.test(key)));
  Object.assign(env, { NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false', CI: 'true', NO_COLOR: '1' });
  delete env['FORCE_COLOR'];

  const run = (command: string, ...args: string[]) => {
    const result = spawnSync(command, args, { cwd: workspace, env, encoding: 'utf-8' });
    const output = stripVTControlCharacters(`${result.stdout}\n${result.stderr}`);
    if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${result.status}:\n${output.slice(-6000)}`);
    return output;
  };
  const nx = (...args: string[]) => run(process.execPath, join(workspace, 'node_modules/nx/dist/bin/nx.js'), ...args);
  const npmInstall = () => run('npm', 'install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error');

  beforeAll(() => {
    const root = mkdtempSync(join(tmpdir(), 'toolsets-adopt-'));
    const packs = join(root, 'packs');
    mkdirSync(packs);
    execFileSync(process.execPath, [join(workspaceRoot, 'tools/workspace-plugin/scripts/package.cjs')], { cwd: workspaceRoot, stdio: 'pipe' });
    execFileSync('npm', ['pack', './libs/core', './libs/testing', './tools/workspace-plugin/dist', '--pack-destination', packs, '--silent'], { cwd: workspaceRoot });
    const tarball = (prefix: string) => `file:${join(packs, readdirSync(packs).find((file) => file.startsWith(prefix))!)}`;
    workspace = join(root, 'acme');
    mkdirSync(workspace);
    const nxVersion = rootPackage.devDependencies['nx'];
    writeFileSync(
      join(workspace, 'package.json'),
      JSON.stringify(
        {
          name: '@acme/source',
          private: true,
          devDependencies: {
            nx: nxVersion,
            '@nx/js': nxVersion,
            '@toolsets/workspace-plugin': tarball('toolsets-workspace-plugin-'),
            // Not on a registry yet: the tarballs stand in for the published versions init adds.
            '@toolsets/core': tarball('toolsets-core-'),
            '@toolsets/testing': tarball('toolsets-testing-'),
          },
        },
        null,
        2,
      ),
    );
    writeFileSync(join(workspace, 'nx.json'), JSON.stringify({ $schema: './node_modules/nx/schemas/nx-schema.json', neverConnectToCloud: true }, null, 2));
    // What create-nx-workspace leaves: a base tsconfig without decorator options.
    writeFileSync(
      join(workspace, 'tsconfig.base.json'),
      JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true, esModuleInterop: true, skipLibCheck: true, types: ['node'], baseUrl: '.', paths: {} } }, null, 2),
    );
    execFileSync('git', ['init', '-q'], { cwd: workspace });
    npmInstall();
  }, 600_000);
  afterAll(() => rmSync(join(workspace, '..'), { recursive: true, force: true }));

  it('init, then the toolset and app generators, give projects that pass lint, typecheck, test, contract and build, and the app serves', async () => {
    const init = nx('g', '@toolsets/workspace-plugin:init', '--skipInstall', '--no-interactive');
    expect(init).toContain('UPDATE tsconfig.base.json');
    expect(init).toContain('CREATE tools/build/build-project.cjs');
    expect(init).toContain('CREATE jest.preset.js');
    expect(init).toContain('CREATE eslint.config.mjs');
    const tsconfig = JSON.parse(readFileSync(join(workspace, 'tsconfig.base.json'), 'utf-8'));
    expect(tsconfig.compilerOptions).toMatchObject({ experimentalDecorators: true, emitDecoratorMetadata: true, useDefineForClassFields: false });
    npmInstall();

    nx('g', '@toolsets/workspace-plugin:toolset', 'weather', '--description=Forecasts.', '--skipInstall', '--no-interactive');
    nx('g', '@toolsets/workspace-plugin:app', 'weather-server', '--toolsets=weather', '--no-interactive');
    npmInstall();

    const output = nx('run-many', '-t', 'lint', 'typecheck', 'test', 'contract', 'build', '--outputStyle=static', '--skip-nx-cache');
    expect(output).toContain('Successfully ran targets lint, typecheck, test, contract, build');
    expect(output).toContain('Wrote libs/toolsets/weather/contract.json');

    const client = new Client({ name: 'adopter', version: '0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [join(workspace, 'apps/weather-server/dist/main.js'), '--stdio'], cwd: workspace, stderr: 'pipe' }));
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['weather_echo']);
    expect((await client.callTool({ name: 'weather_echo', arguments: { text: 'hi' } })).structuredContent).toMatchObject({ text: 'hi' });
    await client.close();
  });
});
