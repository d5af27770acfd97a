import { getProjects, joinPathFragments, type Tree } from '@nx/devkit';
import { CONFIG_FILE, DOCUMENT_FILE, writeGeneratedSources } from '../../openapi/library-files';

/** What Nx reads from a sync generator (its own type is not on @nx/devkit's public surface). */
interface SyncGeneratorResult {
  outOfSyncMessage?: string;
}

/**
 * The global sync generator: regenerates every OpenAPI toolset library's `src/generated` from its
 * `openapi.json` and `openapi.config.json`. `nx sync:check` fails when that would change a file
 * (someone edited generated code, or the document, without regenerating); `nx sync` writes it.
 */
export async function openApiSyncGenerator(tree: Tree): Promise<SyncGeneratorResult> {
  const stale: string[] = [];
  for (const [name, project] of getProjects(tree)) {
    if (!tree.exists(joinPathFragments(project.root, DOCUMENT_FILE)) || !tree.exists(joinPathFragments(project.root, CONFIG_FILE))) continue;
    if ((await writeGeneratedSources(tree, project.root)).changed) stale.push(name);
  }
  return stale.length ? { outOfSyncMessage: `The generated code of ${stale.join(', ')} differs from what its openapi.json and openapi.config.json generate. Run \`npx nx sync\`.` } : {};
}

export default openApiSyncGenerator;
