import { readProjectConfiguration, type Tree } from '@nx/devkit';
import { createWorkspaceTree } from '../support/workspace-tree';
import { toolsetGenerator } from '../../src/generators/toolset/generator';
import { appGenerator } from '../../src/generators/app/generator';

describe('app generator', () => {
  let tree: Tree;

  beforeEach(async () => {
    tree = createWorkspaceTree();
    await toolsetGenerator(tree, { name: 'library', skipInstall: true });
    await toolsetGenerator(tree, { name: 'billing', credentialHeader: ['x-billing-key'], skipInstall: true });
  });

  it('creates an app serving the given toolsets, with build (after typecheck), serve and typecheck targets, and server definitions apart from main', async () => {
    await appGenerator(tree, { name: 'back-office', toolsets: 'library, billing' });
    const project = readProjectConfiguration(tree, 'back-office');
    expect(project.root).toBe('apps/back-office');
    expect(project.tags).toEqual(['type:app']);
    expect(project.targets?.['build']?.options.command).toBe('node tools/build/build-project.cjs apps/back-office/src apps/back-office/dist');
    expect(project.targets?.['serve']).toMatchObject({ dependsOn: ['build'], options: { command: 'node apps/back-office/dist/main.js' } });
    expect(project.targets?.['build']?.dependsOn).toEqual(['^build', 'typecheck']);
    expect(tree.read('apps/back-office/src/servers.ts', 'utf-8')).toBe(`import 'reflect-metadata';
import { buildServer, type ServerDefinition } from '@toolsets/core';
import { LibraryToolset } from '@toolsets/library';
import { BillingToolset } from '@toolsets/billing';

/** The app's server definitions; \`main.ts\` serves them, and the \`contract\` target checks them without listening. */
export function buildServers(): ServerDefinition {
  return buildServer({ name: 'back-office', version: '0.1.0', toolsets: [LibraryToolset, BillingToolset] });
}
`);
    expect(tree.read('apps/back-office/src/main.ts', 'utf-8')).toBe(`import { startApp } from '@toolsets/core';
import { buildServers } from './servers';

// Streamable HTTP on http://127.0.0.1:8000/mcp (HOST, PORT override), or stdio with --stdio.
startApp(buildServers);
`);
  });

  it('refuses a toolset that does not exist, listing those that do', async () => {
    await expect(appGenerator(tree, { name: 'x', toolsets: 'library,nope' })).rejects.toThrow(
      "No toolset named 'nope'. Toolsets in this workspace: library, billing.",
    );
    expect(tree.exists('apps/x')).toBe(false);
  });

  it('refuses no toolsets, an existing app and a name that is not kebab-case', async () => {
    await expect(appGenerator(tree, { name: 'x', toolsets: ' , ' })).rejects.toThrow('Name at least one toolset to serve');
    await appGenerator(tree, { name: 'x', toolsets: 'library' });
    await expect(appGenerator(tree, { name: 'x', toolsets: 'library' })).rejects.toThrow('apps/x already exists');
    await expect(appGenerator(tree, { name: 'BackOffice', toolsets: 'library' })).rejects.toThrow('App name "BackOffice" must be kebab-case');
  });

  it('--publishable gives a package.json with a bin and the workspace libraries bundled, a shebang, and package, mcpb and server-json targets', async () => {
    await appGenerator(tree, { name: 'back-office', toolsets: 'library', publishable: true, mcpName: 'io.github.acme/back-office' });
    const manifest = JSON.parse(tree.read('apps/back-office/package.json', 'utf-8')!);
    expect(manifest).toMatchObject({ name: '@toolsets/back-office', mcpName: 'io.github.acme/back-office', bin: { 'back-office': './dist/main.js' }, bundleDependencies: ['@toolsets/core', '@toolsets/library'] });
    expect(Object.keys(manifest.dependencies)).toEqual(expect.arrayContaining(['@toolsets/core', '@toolsets/library', 'reflect-metadata', 'tsyringe', '@modelcontextprotocol/server']));
    expect(tree.read('apps/back-office/src/main.ts', 'utf-8')!.startsWith('#!/usr/bin/env node\n')).toBe(true);
    const project = readProjectConfiguration(tree, 'back-office');
    expect(project.targets?.['package']).toMatchObject({ dependsOn: ['build'], options: { command: 'node tools/build/package-app.cjs apps/back-office' } });
    expect(project.targets?.['mcpb']).toMatchObject({ dependsOn: ['package'], options: { command: 'node tools/build/mcpb-app.cjs apps/back-office' } });
    expect(project.targets?.['server-json']).toMatchObject({ dependsOn: ['package'], options: { command: 'node tools/build/server-json-app.cjs apps/back-office' } });
    expect(project.targets?.['dev']).toMatchObject({ dependsOn: ['build'], options: { command: 'node tools/build/dev-app.cjs apps/back-office' } });
    expect(Object.keys(JSON.parse(tree.read('package.json', 'utf-8')!).devDependencies)).toEqual(expect.arrayContaining(['@anthropic-ai/mcpb', 'ajv', 'ajv-formats']));
    await expect(appGenerator(tree, { name: 'front-office', toolsets: 'library', publishable: true, mcpName: 'acme' })).rejects.toThrow(
      '--mcpName=acme is not a registry name: give a reverse-DNS name with one slash, such as io.github.<you>/front-office.',
    );
    const dockerfile = tree.read('apps/back-office/Dockerfile', 'utf-8')!;
    expect(dockerfile).toContain('RUN npm ci --no-audit --no-fund && npx nx run back-office:package --outputStyle=static');
    expect(dockerfile).toContain('COPY --from=build /workspace/apps/back-office/dist-package/*.tgz /tmp/app.tgz');
    expect(dockerfile).toContain('exec node node_modules/@toolsets/back-office/dist/main.js');
    expect(tree.children('deploy/k8s/back-office').sort()).toEqual(['deployment.yaml', 'hpa.yaml', 'kustomization.yaml', 'pdb.yaml', 'service.yaml']);
    expect(tree.read('deploy/k8s/back-office/deployment.yaml', 'utf-8')).toContain('image: back-office');
  });

  it('without --publishable, writes a private package.json holding only the version its contract records, and no shebang', async () => {
    await appGenerator(tree, { name: 'back-office', toolsets: 'library' });
    expect(JSON.parse(tree.read('apps/back-office/package.json', 'utf-8')!)).toEqual({ name: '@toolsets/back-office', version: '0.1.0', private: true });
    expect(tree.read('apps/back-office/src/main.ts', 'utf-8')!.startsWith('import')).toBe(true);
  });
});
