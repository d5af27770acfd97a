import { formatFiles, generateFiles, getProjects, joinPathFragments, offsetFromRoot, type Tree } from '@nx/devkit';
import { join } from 'node:path';
import { assertKebabCase } from '../../utils/naming';
import { findToolsetSources } from '../../utils/toolset-source';
import { findToolsetProject } from '../../utils/workspace';
import type { AppGeneratorSchema } from './schema';

/** Creates a server app that serves the given toolsets as one server (one /mcp endpoint, and --stdio). */
export async function appGenerator(tree: Tree, options: AppGeneratorSchema): Promise<void> {
  assertKebabCase('App', options.name);
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
    tmpl: '',
  });
  await formatFiles(tree);
}

export default appGenerator;
