import {
  formatFiles,
  generateFiles,
  getProjects,
  installPackagesTask,
  joinPathFragments,
  names,
  offsetFromRoot,
  updateJson,
  type GeneratorCallback,
  type Tree,
} from '@nx/devkit';
import { join } from 'node:path';
import { assertKebabCase, normalizeHeader, snakeCase } from '../../utils/naming';
import { addPathMapping, optOutOfCompositeBuild, typecheckCommand } from '../../utils/workspace-tsconfig';
import type { ToolsetGeneratorSchema } from './schema';
import { tsString } from '@toolsets/core/ts-literal';

export interface NormalizedToolset {
  name: string;
  packageName: string;
  projectRoot: string;
  className: string;
  toolPrefix: string;
  description: string;
  credentialHeaders: string[];
}

/** Validates everything before anything is written: a refused generator leaves the tree as it was. */
export function normalizeToolsetOptions(tree: Tree, options: ToolsetGeneratorSchema): NormalizedToolset {
  assertKebabCase('Toolset', options.name);
  const name = options.name;
  const directory = (options.directory ?? 'libs/toolsets').replace(/^\.?\/+|\/+$/g, '');
  const projectRoot = joinPathFragments(directory, name);
  const packageName = `@toolsets/${name}`;
  if (tree.exists(projectRoot)) {
    throw new Error(`${projectRoot} already exists. Choose another toolset name, or add a tool to it with \`nx g @toolsets/workspace-plugin:tool ${name} <tool-name>\`.`);
  }
  const clash = [...getProjects(tree).entries()].find(([projectName, project]) => projectName === packageName || projectName === name || project.root === projectRoot);
  if (clash) throw new Error(`The name '${name}' is already taken by project '${clash[0]}' (${clash[1].root}). Choose another toolset name.`);
  const paths = tree.exists('tsconfig.base.json') ? (readPaths(tree) ?? {}) : {};
  if (paths[packageName]) throw new Error(`tsconfig.base.json already maps '${packageName}' to ${paths[packageName].join(', ')}. Choose another toolset name.`);
  const credentialHeaders = [...new Set((options.credentialHeader ?? []).map(normalizeHeader))];
  return {
    name,
    packageName,
    projectRoot,
    className: names(name).className,
    toolPrefix: snakeCase(name),
    description: options.description?.trim() || `The ${name} toolset.`,
    credentialHeaders,
  };
}

export async function toolsetGenerator(tree: Tree, options: ToolsetGeneratorSchema): Promise<GeneratorCallback | undefined> {
  const toolset = normalizeToolsetOptions(tree, options);
  generateFiles(tree, join(__dirname, 'files'), toolset.projectRoot, {
    ...toolset,
    fileName: toolset.name,
    offset: offsetFromRoot(toolset.projectRoot),
    typecheck: typecheckCommand(tree, [`${toolset.projectRoot}/tsconfig.lib.json`, `${toolset.projectRoot}/tsconfig.spec.json`]),
    tsString,
    tmpl: '',
  });
  if (toolset.credentialHeaders.length === 0) tree.delete(joinPathFragments(toolset.projectRoot, 'src/lib/access.dto.ts'));
  addPathMapping(tree, toolset.packageName, `${toolset.projectRoot}/src/index.ts`);
  optOutOfCompositeBuild(tree, toolset.projectRoot);
  addToWorkspaces(tree, toolset.projectRoot);
  await formatFiles(tree);
  // npm install links the new workspace package, which the built apps resolve at run time.
  return options.skipInstall ? undefined : () => installPackagesTask(tree, true);
}

function readPaths(tree: Tree): Record<string, string[]> | undefined {
  return JSON.parse(tree.read('tsconfig.base.json', 'utf-8') ?? '{}').compilerOptions?.paths;
}

/** Makes sure npm workspaces cover the new project, so `npm install` links `@toolsets/<name>`. */
function addToWorkspaces(tree: Tree, projectRoot: string): void {
  if (!tree.exists('package.json')) return;
  updateJson(tree, 'package.json', (json) => {
    const workspaces: string[] = Array.isArray(json.workspaces) ? json.workspaces : [];
    const parent = projectRoot.slice(0, projectRoot.lastIndexOf('/'));
    if (!workspaces.includes(`${parent}/*`) && !workspaces.includes(projectRoot)) json.workspaces = [...workspaces, `${parent}/*`];
    return json;
  });
}

export default toolsetGenerator;
