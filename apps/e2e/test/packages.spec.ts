import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { startServerProcess, workspaceRoot } from './support/server-process';

const VERSIONS = require(join(workspaceRoot, 'package.json')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
const pin = (name: string) => VERSIONS.dependencies[name] ?? VERSIONS.devDependencies[name];

const TOOLSET = `import { IsOptional, MaxLength } from 'class-validator';
import { Field, Result, Tool, ToolError, ToolResult, Toolset } from '@toolsets/core';

export class ForecastArgs {
  @Field({ description: 'A city name.' })
  @MaxLength(60)
  city!: string;

  @Field({ description: 'Days ahead, 1 to 3.' })
  @IsOptional()
  days?: number;
}

@Result({ description: 'The forecast.' })
export class ForecastResult extends ToolResult {
  @Field({ description: 'Degrees Celsius.' })
  celsius!: number;
}

@Toolset({ description: 'Weather.' })
export class WeatherToolset {
  @Tool({ description: 'Forecast for a city.', args: ForecastArgs, returns: [ForecastResult, ToolError] })
  forecast(args: ForecastArgs): ForecastResult | ToolError {
    if (args.city === 'Atlantis') return new ToolError('not_found', 'No such city.');
    return { message: \`\${args.city}: 21 °C in \${args.days ?? 1} day(s).\`, celsius: 21 };
  }
}
`;

const MAIN = `import 'reflect-metadata';
import { buildServer, startApp } from '@toolsets/core';
import { WeatherToolset } from './weather';

startApp(() => buildServer({ name: 'weather', version: '1.0.0', toolsets: [WeatherToolset] }));
`;

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

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'node16',
    moduleResolution: 'node16',
    strict: true,
    experimentalDecorators: true,
    emitDecoratorMetadata: true,
    useDefineForClassFields: false,
    skipLibCheck: true,
    rootDir: 'src',
    outDir: 'dist',
    types: ['node'],
  },
  include: ['src'],
};

/**
 * The packages as another repository gets them: packed with `npm pack`, installed into a fresh
 * project outside this workspace (dependencies from the registry, through npm's cache), compiled
 * with `tsc` against the published declarations, and served over stdio and HTTP.
 */
describe('@toolsets/core and @toolsets/testing, packed and installed in a plain TypeScript project', () => {
  let project: string;

  beforeAll(() => {
    const root = mkdtempSync(join(tmpdir(), 'toolsets-consumer-'));
    const packs = join(root, 'packs');
    mkdirSync(packs);
    execFileSync('npm', ['pack', './libs/core', './libs/testing', '--pack-destination', packs, '--silent'], { cwd: workspaceRoot });
    const tarball = (prefix: string) => join(packs, readdirSync(packs).find((file) => file.startsWith(prefix))!);
    project = join(root, 'weather');
    mkdirSync(join(project, 'src'), { recursive: true });
    const dependencies: Record<string, string> = {
      '@toolsets/core': `file:${tarball('toolsets-core-')}`,
      '@toolsets/testing': `file:${tarball('toolsets-testing-')}`,
    };
    for (const name of ['@modelcontextprotocol/server', 'class-transformer', 'class-validator', 'reflect-metadata', 'tsyringe', 'typescript', '@types/node']) dependencies[name] = pin(name);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'weather', private: true, version: '1.0.0', dependencies }, null, 2));
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
    writeFileSync(join(project, 'src/weather.ts'), TOOLSET);
    writeFileSync(join(project, 'src/main.ts'), MAIN);
    writeFileSync(join(project, 'src/with-testing.ts'), WITH_TESTING);
    execFileSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'], { cwd: project, stdio: 'pipe' });
  }, 300_000);
  afterAll(() => rmSync(join(project, '..'), { recursive: true, force: true }));

  const tsc = (...args: string[]) => spawnSync(process.execPath, [join(project, 'node_modules/typescript/bin/tsc'), ...args], { cwd: project, encoding: 'utf-8' });

  it('compiles a toolset with tsc against the published declarations', () => {
    const run = tsc('-p', '.');
    expect(run.stdout + run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it('serves it over stdio and HTTP to the SDK Client, with typed results', async () => {
    const stdio = new Client({ name: 'consumer', version: '0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await stdio.connect(new StdioClientTransport({ command: process.execPath, args: [join(project, 'dist/main.js'), '--stdio'], cwd: project, stderr: 'pipe' }));
    expect((await stdio.callTool({ name: 'forecast', arguments: { city: 'Lisbon', days: 2 } })).structuredContent).toEqual({ message: 'Lisbon: 21 °C in 2 day(s).', celsius: 21 });
    expect((await stdio.callTool({ name: 'forecast', arguments: { city: 'Atlantis' } })).structuredContent).toEqual({ error: 'not_found', detail: 'No such city.' });
    await stdio.close();

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
  });

  it('tests it with @toolsets/testing', () => {
    expect(execFileSync(process.execPath, [join(project, 'dist/with-testing.js')], { cwd: project, encoding: 'utf-8' })).toBe('{"message":"Lisbon: 21 °C in 1 day(s).","celsius":21}');
  });

  it('makes tsc reject a tool whose return type breaks the contract there too', () => {
    writeFileSync(join(project, 'src/broken.ts'), BROKEN);
    try {
      const run = tsc('-p', '.', '--noEmit');
      expect(run.status).not.toBe(0);
      expect(run.stdout).toMatch(/src\/broken\.ts\(\d+,\d+\): error TS\d+: .*'count'/s);
    } finally {
      rmSync(join(project, 'src/broken.ts'));
    }
  });

  it('nx release --dry-run versions core and testing together and previews the changelog, writing nothing', () => {
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
    expect(output).toMatch(/@toolsets\/testing .*because the project is a member of a fixed release group containing @toolsets\/core/);
    expect(output).toContain('Previewing an entry in CHANGELOG.md');
    expect(output).toContain('NOTE: The "dryRun" flag means no changes were made.');
    expect(status()).toBe(before);
  }, 120_000);
});
