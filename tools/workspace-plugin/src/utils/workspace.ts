import { getProjects, type ProjectConfiguration, type Tree } from '@nx/devkit';

import { APP_TAG, TOOLSET_TAG } from '../plugin/create-nodes.cjs';

// One truth for the tags: the inferred targets (plain CommonJS, loaded by Nx without a transpiler) read them too.
export { APP_TAG, TOOLSET_TAG };

export interface NamedProject extends ProjectConfiguration {
  name: string;
}

/** Every project tagged `type:toolset`. */
export function toolsetProjects(tree: Tree): NamedProject[] {
  return [...getProjects(tree).entries()]
    .filter(([, project]) => project.tags?.includes(TOOLSET_TAG))
    .map(([name, project]) => ({ ...project, name }));
}

/** The toolset project called `name` (`library` or `@toolsets/library`), or an error listing the toolsets. */
export function findToolsetProject(tree: Tree, name: string): NamedProject {
  const toolsets = toolsetProjects(tree);
  const project = toolsets.find((p) => p.name === name || p.name === `@toolsets/${name}`);
  if (!project) {
    const available = toolsets.map((p) => p.name.replace(/^@toolsets\//, ''));
    throw new Error(
      `No toolset named '${name}'. ` +
        (available.length ? `Toolsets in this workspace: ${available.join(', ')}.` : 'Create one with `nx g @toolsets/workspace-plugin:toolset <name>`.'),
    );
  }
  return project;
}
