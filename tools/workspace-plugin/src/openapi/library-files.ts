import { joinPathFragments, type Tree } from '@nx/devkit';
import { applyOverlay } from './apply-overlay';
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
  /** An OpenAPI Overlay file in the library (`openapi.overlay.yaml`), applied to the document before generation. */
  overlay?: string;
}

/**
 * The document as the generator reads it: the library's copy, with its config's overlay applied.
 * `read` gives a library file's text (from the Nx tree or the disk), undefined when it is missing.
 */
export async function overlaidDocument(document: unknown, config: LibraryConfig, read: (file: string) => string | undefined, projectRoot: string): Promise<unknown> {
  if (config.overlay === undefined) return document;
  if (typeof config.overlay !== 'string' || !/^[\w.-]+\.(json|ya?ml)$/.test(config.overlay)) {
    throw new Error(`${CONFIG_FILE} "overlay": ${JSON.stringify(config.overlay)} must name a .json, .yaml or .yml file in the library's folder (openapi.overlay.yaml).`);
  }
  const text = read(config.overlay);
  if (text === undefined) throw new Error(`${CONFIG_FILE} names the overlay ${projectRoot}/${config.overlay}, which does not exist. Add it, or remove "overlay".`);
  return applyOverlay(document, text, `${projectRoot}/${config.overlay}`);
}

/** Regenerates a library's sources from its own copy of the document and its config, into the tree; `changed` says whether a file differed. */
export async function writeGeneratedSources(tree: Tree, projectRoot: string): Promise<GeneratedToolset & { changed: boolean }> {
  const config = JSON.parse(tree.read(joinPathFragments(projectRoot, CONFIG_FILE), 'utf-8')!) as LibraryConfig;
  const copy = JSON.parse(tree.read(joinPathFragments(projectRoot, DOCUMENT_FILE), 'utf-8')!);
  const document = await overlaidDocument(copy, config, (file) => tree.read(joinPathFragments(projectRoot, file), 'utf-8') ?? undefined, projectRoot);
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
