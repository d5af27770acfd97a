import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { accountOf } from './support/clients';
import { packedApp } from './support/packed-app';
import { workspaceRoot } from './support/server-process';

const app = join(workspaceRoot, 'apps/credential-demo-server');
const mcpbCli = join(workspaceRoot, 'node_modules/@anthropic-ai/mcpb/dist/cli/cli.js');

async function whoami(command: string, args: string[], token: string): Promise<unknown> {
  const client = new Client({ name: 'installed', version: '0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new StdioClientTransport({ command, args, env: { PATH: process.env['PATH'] ?? '', X_DEMO_TOKEN: token }, stderr: 'pipe' }));
  const result = await client.callTool({ name: 'whoami', arguments: {} });
  await client.close();
  return result.structuredContent;
}

/** The credential-demo app as its users get it: a package run through its bin, and an MCP Bundle. */
describe('the publishable credential-demo app', () => {
  const scratch: string[] = [];
  afterAll(() => scratch.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('packs into a self-contained package that starts through its bin over stdio, the token from the environment', async () => {
    // Packed by package-app.cjs and installed from its tarball once per run, shared with the image's test.
    const folder = packedApp('credential-demo-server').installed;
    // @toolsets/core and the toolset library ride inside the package (bundleDependencies).
    expect(readdirSync(join(folder, 'node_modules/@toolsets/credential-demo-server/node_modules/@toolsets')).sort()).toEqual(['core', 'credential-demo']);
    expect(await whoami(join(folder, 'node_modules/.bin/credential-demo-server'), ['--stdio'], 'installed-token')).toEqual({
      message: `The caller's credential belongs to account ${accountOf('installed-token')}.`,
      account: accountOf('installed-token'),
    });
  }, 180_000);

  it('builds an MCP Bundle that mcpb validates, with the tools and the credential as a sensitive user_config entry, and that serves', async () => {
    const { packageDir } = packedApp('credential-demo-server');
    execFileSync(process.execPath, [join(workspaceRoot, 'tools/build/mcpb-app.cjs'), app, packageDir], { stdio: 'pipe' });
    const bundle = join(packageDir, 'credential-demo-server.mcpb');
    expect(execFileSync(process.execPath, [mcpbCli, 'info', bundle], { encoding: 'utf-8' })).toContain('File: credential-demo-server.mcpb');
    const unpacked = mkdtempSync(join(tmpdir(), 'toolsets-mcpb-'));
    scratch.push(unpacked);
    execFileSync(process.execPath, [mcpbCli, 'unpack', bundle, unpacked], { stdio: 'pipe' });
    expect(execFileSync(process.execPath, [mcpbCli, 'validate', join(unpacked, 'manifest.json')], { encoding: 'utf-8' })).toContain('Manifest schema validation passes!');
    const manifest = JSON.parse(readFileSync(join(unpacked, 'manifest.json'), 'utf-8'));
    expect(manifest.tools.map((tool: { name: string }) => tool.name)).toEqual(['whoami']);
    expect(manifest.user_config).toEqual({ x_demo_token: expect.objectContaining({ type: 'string', title: 'x-demo-token', sensitive: true, required: true }) });
    expect(manifest.server.mcp_config).toEqual({
      command: 'node',
      args: ['${__dirname}/node_modules/@toolsets/credential-demo-server/dist/main.js', '--stdio'],
      env: { X_DEMO_TOKEN: '${user_config.x_demo_token}' },
    });
    // As a desktop client starts it: the entry point from the unpacked bundle, the user's token in the environment.
    expect(await whoami(process.execPath, [join(unpacked, manifest.server.entry_point), '--stdio'], 'bundle-token')).toMatchObject({ account: accountOf('bundle-token') });
  }, 180_000);

  it('writes the registry’s server.json from the packed app: valid against the registry’s schema, and what it says runs', async () => {
    const { packageDir, installed } = packedApp('credential-demo-server');
    if (!existsSync(join(packageDir, 'credential-demo-server.mcpb'))) execFileSync(process.execPath, [join(workspaceRoot, 'tools/build/mcpb-app.cjs'), app, packageDir], { stdio: 'pipe' });
    // A copy to publish from, with a release URL for the bundle and a remote endpoint.
    const out = mkdtempSync(join(tmpdir(), 'toolsets-server-json-'));
    scratch.push(out);
    cpSync(packageDir, out, { recursive: true });
    const manifest = JSON.parse(readFileSync(join(out, 'package.json'), 'utf-8'));
    manifest.mcpRegistry = { ...manifest.mcpRegistry, mcpbUrl: 'https://github.com/acme/demo/releases/download/v{version}/credential-demo-server.mcpb', remote: 'https://mcp.example.com/credential-demo/mcp' };
    writeFileSync(join(out, 'package.json'), JSON.stringify(manifest));
    execFileSync(process.execPath, [join(workspaceRoot, 'tools/build/server-json-app.cjs'), app, out], { stdio: 'pipe' });
    const serverJson = JSON.parse(readFileSync(join(out, 'server.json'), 'utf-8'));

    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    const valid = ajv.compile(JSON.parse(readFileSync(join(workspaceRoot, 'tools/build/schemas/server.schema.json'), 'utf-8')));
    expect([valid(serverJson), valid.errors ?? []]).toEqual([true, []]);
    expect(serverJson).toMatchObject({ $schema: 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json', name: 'io.github.toolsets/credential-demo-server', version: manifest.version });
    const [npm, oci, mcpb] = serverJson.packages;
    expect(npm).toEqual({
      registryType: 'npm',
      registryBaseUrl: 'https://registry.npmjs.org',
      identifier: '@toolsets/credential-demo-server',
      version: manifest.version,
      runtimeHint: 'npx',
      transport: { type: 'stdio' },
      packageArguments: [{ type: 'positional', value: '--stdio' }],
      environmentVariables: [{ name: 'X_DEMO_TOKEN', description: 'The x-demo-token credential the credential-demo tools read.', isRequired: true, isSecret: true }],
    });
    expect(oci).toMatchObject({ registryType: 'oci', identifier: `credential-demo-server:${manifest.version}`, transport: { type: 'streamable-http', url: 'http://localhost:8000/mcp' } });
    expect(mcpb).toEqual({
      registryType: 'mcpb',
      identifier: `https://github.com/acme/demo/releases/download/v${manifest.version}/credential-demo-server.mcpb`,
      version: manifest.version,
      fileSha256: createHash('sha256').update(readFileSync(join(out, 'credential-demo-server.mcpb'))).digest('hex'),
      transport: { type: 'stdio' },
    });
    expect(serverJson.remotes).toEqual([{ type: 'streamable-http', url: 'https://mcp.example.com/credential-demo/mcp', headers: [expect.objectContaining({ name: 'x-demo-token', isSecret: true })] }]);

    // As a registry client runs the npm package: its bin, the package arguments, the secret in the variable it names.
    const args = npm.packageArguments.map((argument: { value: string }) => argument.value);
    const variable = npm.environmentVariables[0].name;
    expect(variable).toBe('X_DEMO_TOKEN');
    expect(await whoami(join(installed, 'node_modules/.bin/credential-demo-server'), args, 'registry-token')).toMatchObject({ account: accountOf('registry-token') });

    // Without a registry name, nothing is written, and the message says what to set.
    delete manifest.mcpName;
    writeFileSync(join(out, 'package.json'), JSON.stringify(manifest));
    rmSync(join(out, 'server.json'));
    let message = '';
    try {
      execFileSync(process.execPath, [join(workspaceRoot, 'tools/build/server-json-app.cjs'), app, out], { stdio: 'pipe', encoding: 'utf-8' });
    } catch (error) {
      message = String((error as { stderr: string }).stderr);
    }
    expect(message).toContain('apps/credential-demo-server/package.json has no "mcpName": set it to the name you publish the server under, such as "io.github.<you>/credential-demo-server"');
    expect(existsSync(join(out, 'server.json'))).toBe(false);
  }, 180_000);
});
