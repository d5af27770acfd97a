import { addDependenciesToPackageJson, formatFiles, generateFiles, getProjects, joinPathFragments, offsetFromRoot, readJson, visitNotIgnoredFiles, type Tree } from '@nx/devkit';
import { knownVersions } from '../../utils/plugin-files';
import { join } from 'node:path';
import { assertKebabCase } from '../../utils/naming';
import { findToolsetSources } from '../../utils/toolset-source';
import { findToolsetProject } from '../../utils/workspace';
import { optOutOfCompositeBuild, typecheckCommand } from '../../utils/workspace-tsconfig';
import type { AppGeneratorSchema } from './schema';
import { CORE_DEPENDENCIES, CORE_METRICS_PEERS, CORE_PEER_DEPENDENCIES, SUPPORTED_NODE } from '../../utils/core-packages';

/** Creates a server app that serves the given toolsets as one server (one /mcp endpoint, and --stdio). */
export async function appGenerator(tree: Tree, options: AppGeneratorSchema): Promise<void> {
  assertKebabCase('App', options.name);
  if (options.mcpName !== undefined && !/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/.test(options.mcpName)) {
    throw new Error(`--mcpName=${options.mcpName} is not a registry name: give a reverse-DNS name with one slash, such as io.github.<you>/${options.name}.`);
  }
  const projectRoot = joinPathFragments((options.directory ?? 'apps').replace(/^\.?\/+|\/+$/g, ''), options.name);
  if (tree.exists(projectRoot)) throw new Error(`${projectRoot} already exists. Choose another app name.`);
  const clash = [...getProjects(tree).keys()].find((name) => name === options.name);
  if (clash) throw new Error(`The name '${options.name}' is already taken by project '${clash}'. Choose another app name.`);

  const requested = [...new Set((options.toolsets ?? '').split(',').map((t) => t.trim()).filter(Boolean))];
  if (requested.length === 0) throw new Error('Name at least one toolset to serve: --toolsets=hello,credential-demo');
  const imports = requested.map((name) => {
    const project = findToolsetProject(tree, name);
    const sources = findToolsetSources(tree, project.root);
    if (sources.length === 0) throw new Error(`Toolset '${project.name}' has no @Toolset class under ${project.root}/src.`);
    return { packageName: project.name, classNames: sources.map((source) => source.className) };
  });

  generateFiles(tree, join(__dirname, 'files'), projectRoot, {
    name: options.name,
    projectRoot,
    offset: offsetFromRoot(projectRoot),
    imports,
    toolsetClasses: imports.flatMap((i) => i.classNames),
    publishable: options.publishable === true,
    typecheck: typecheckCommand(tree, [`${projectRoot}/tsconfig.app.json`]),
    tmpl: '',
  });
  optOutOfCompositeBuild(tree, projectRoot);
  if (options.publishable) {
    writePublishableManifest(tree, options.name, projectRoot, imports.map((i) => i.packageName), options.mcpName);
    // The image runs the packed app; the manifests run the image.
    const substitutions = { name: options.name, packageName: `@toolsets/${options.name}`, projectRoot, tmpl: '' };
    generateFiles(tree, join(__dirname, 'container/app'), projectRoot, substitutions);
    generateFiles(tree, join(__dirname, 'container/deploy'), joinPathFragments('deploy/k8s', options.name), substitutions);
  } else {
    writePrivateManifest(tree, options.name, projectRoot);
  }
  await formatFiles(tree);
}

/**
 * An app that is not published still has a version: its `contract` target records, with each
 * server's curated tools (`curate()`), the version that served them, and classifies the next
 * change by it. Private, so it is never published by mistake.
 */
function writePrivateManifest(tree: Tree, name: string, projectRoot: string): void {
  tree.write(joinPathFragments(projectRoot, 'package.json'), `${JSON.stringify({ name: `@toolsets/${name}`, version: '0.1.0', private: true }, null, 2)}\n`);
}

/**
 * What a server app needs at run time: @toolsets/core is bundled, so its dependencies and peers are
 * the app's; it owns the single copy of each. The metrics peers too: its manifests set METRICS=on.
 */
const RUNTIME = [...CORE_DEPENDENCIES, ...CORE_PEER_DEPENDENCIES, ...CORE_METRICS_PEERS].sort();

/**
 * An installable app: a package.json with a bin, @toolsets/core and the toolset libraries bundled
 * inside it (the package target copies their builds), third-party packages from the registry.
 */
function writePublishableManifest(tree: Tree, name: string, projectRoot: string, toolsets: string[], mcpName: string | undefined): void {
  const known = knownVersions(__dirname);
  const root = readJson(tree, 'package.json') as { dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
  const version = (pkg: string) => root.dependencies?.[pkg] ?? root.devDependencies?.[pkg] ?? known[pkg] ?? '*';
  const libraryVersion = (pkg: string) => {
    const project = findToolsetProject(tree, pkg.replace(/^@toolsets\//, ''));
    return (readJson(tree, joinPathFragments(project.root, 'package.json')) as { version?: string }).version ?? '0.1.0';
  };
  // Workspace libraries the toolsets import (an OpenAPI toolset's @toolsets/openapi) ride along too.
  const shared = new Set<string>();
  for (const pkg of toolsets) {
    visitNotIgnoredFiles(tree, joinPathFragments(findToolsetProject(tree, pkg.replace(/^@toolsets\//, '')).root, 'src'), (file) => {
      for (const [, imported] of (tree.read(file, 'utf-8') ?? '').matchAll(/from '(@toolsets\/[a-z0-9-]+)'/g)) {
        if (!['@toolsets/core', '@toolsets/testing', ...toolsets].includes(imported)) shared.add(imported);
      }
    });
  }
  const sharedVersion = (pkg: string) => {
    const project = [...getProjects(tree).entries()].find(([projectName]) => projectName === pkg)?.[1];
    return project && tree.exists(joinPathFragments(project.root, 'package.json')) ? (readJson(tree, joinPathFragments(project.root, 'package.json')) as { version?: string }).version ?? '0.1.0' : version(pkg);
  };
  const coreVersion = tree.exists('libs/core/package.json') ? (readJson(tree, 'libs/core/package.json') as { version: string }).version : version('@toolsets/core');
  tree.write(
    joinPathFragments(projectRoot, 'package.json'),
    JSON.stringify(
      {
        name: `@toolsets/${name}`,
        version: '0.1.0',
        description: `The ${name} MCP server: ${toolsets.join(', ')}.`,
        ...(mcpName && { mcpName }),
        engines: { node: SUPPORTED_NODE },
        bin: { [name]: './dist/main.js' },
        main: './dist/main.js',
        dependencies: {
          '@toolsets/core': coreVersion,
          ...Object.fromEntries(toolsets.map((pkg) => [pkg, libraryVersion(pkg)])),
          ...Object.fromEntries([...shared].map((pkg) => [pkg, sharedVersion(pkg)])),
          ...Object.fromEntries(RUNTIME.map((pkg) => [pkg, version(pkg)])),
        },
        bundleDependencies: ['@toolsets/core', ...toolsets, ...shared],
      },
      null,
      2,
    ),
  );
  // The mcpb target packs a bundle; the server-json target validates server.json against the registry's schema.
  addDependenciesToPackageJson(tree, {}, { '@anthropic-ai/mcpb': version('@anthropic-ai/mcpb'), ajv: version('ajv'), 'ajv-formats': version('ajv-formats') }, undefined, true);
}

export default appGenerator;
