import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
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
});
