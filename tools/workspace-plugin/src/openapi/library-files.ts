import { joinPathFragments, type Tree } from '@nx/devkit';
import type { DocumentSource } from './fetch-document';
import { generateToolset, type GeneratedToolset, type OpenApiConfig } from './generate-toolset';

/** The files of a generated library the generator reads from: the document's copy and the config. */
export const DOCUMENT_FILE = 'openapi.json';
export const CONFIG_FILE = 'openapi.config.json';

/**
 * What `openapi.config.json` holds: the toolset's name, everything `generateToolset` reads besides
 * the document, and, for a document generated from a URL, that source (`openapi-refresh` fetches it).
 */
export interface LibraryConfig extends OpenApiConfig, Partial<DocumentSource> {
  name: string;
}

/** Regenerates a library's sources from its own copy of the document and its config, into the tree; `changed` says whether a file differed. */
export async function writeGeneratedSources(tree: Tree, projectRoot: string): Promise<GeneratedToolset & { changed: boolean }> {
  const config = JSON.parse(tree.read(joinPathFragments(projectRoot, CONFIG_FILE), 'utf-8')!) as LibraryConfig;
  const document = JSON.parse(tree.read(joinPathFragments(projectRoot, DOCUMENT_FILE), 'utf-8')!);
  const generated = await generateToolset(config.name, document, config);
  let changed = false;
  for (const [path, content] of Object.entries(generated.files)) {
    const target = joinPathFragments(projectRoot, path);
    if (tree.read(target, 'utf-8') === content) continue;
    tree.write(target, content);
    changed = true;
  }
  // A file the generator no longer writes (the library was grouped by tag since, or a tag went away) goes.
  const folder = joinPathFragments(projectRoot, 'src/generated');
  for (const file of tree.exists(folder) ? tree.children(folder) : []) {
    if (generated.files[`src/generated/${file}`] !== undefined) continue;
    tree.delete(joinPathFragments(folder, file));
    changed = true;
  }
  return { ...generated, changed };
}
