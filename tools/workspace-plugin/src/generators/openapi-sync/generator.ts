import { getProjects, joinPathFragments, type Tree } from '@nx/devkit';
import { CONFIG_FILE, DOCUMENT_FILE, writeGeneratedSources } from '../../openapi/library-files';
import { isMcpLibrary, writeMcpSources } from '../../mcp/mcp-library-files';

/** What Nx reads from a sync generator (its own type is not on @nx/devkit's public surface). */
interface SyncGeneratorResult {
  outOfSyncMessage?: string;
}

/**
 * The global sync generator: regenerates every generated toolset library's `src/generated` from
 * what it was generated from: an OpenAPI library's `openapi.json` and `openapi.config.json`, an
 * upstream MCP server's `mcp.json` and `mcp.config.json`. `nx sync:check` fails when that would
 * change a file (someone edited generated code, or the config, without regenerating); `nx sync` writes it.
 */
export async function openApiSyncGenerator(tree: Tree): Promise<SyncGeneratorResult> {
  const stale: string[] = [];
  for (const [name, project] of getProjects(tree)) {
    if (isMcpLibrary(tree, project.root)) {
      if (writeMcpSources(tree, project.root).changed) stale.push(name);
      continue;
    }
    if (!tree.exists(joinPathFragments(project.root, DOCUMENT_FILE)) || !tree.exists(joinPathFragments(project.root, CONFIG_FILE))) continue;
    if ((await writeGeneratedSources(tree, project.root)).changed) stale.push(name);
  }
  return stale.length ? { outOfSyncMessage: `The generated code of ${stale.join(', ')} differs from what it is generated from (openapi.json and openapi.config.json, or mcp.json and mcp.config.json). Run \`npx nx sync\`.` } : {};
}

export default openApiSyncGenerator;
