import { addDependenciesToPackageJson, formatFiles, getProjects, installPackagesTask, joinPathFragments, logger, type GeneratorCallback, type Tree } from '@nx/devkit';
import { parse } from '@readme/openapi-parser';
import { readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { upstreamAuthOf } from '../../openapi/api-model';
import { generateToolset } from '../../openapi/generate-toolset';
import { CONFIG_FILE, DOCUMENT_FILE, writeGeneratedSources, type LibraryConfig } from '../../openapi/library-files';
import { OpenApiDocumentError } from '../../openapi/load-document';
import { sourceLocator, type LocatePointer } from '../../openapi/source-lines';
import { gatedCatalogInChild } from '../../openapi/load-generated';
import { catalogSize, formatCatalogSize } from '../../contract/catalog-size';
import { fromSwagger2 } from '../../openapi/swagger2';
import { fetchDocument, isDocumentUrl, sourceHeadersFrom, type DocumentSource } from '../../openapi/fetch-document';
import { knownVersions } from '../../utils/plugin-files';
import { normalizeToolsetOptions, toolsetGenerator } from '../toolset/generator';
import type { OpenApiGeneratorSchema } from './schema';

const OPENAPI_RUNTIME = '@toolsets/openapi';

/**
 * A toolset library from an OpenAPI document: the library keeps the document as `openapi.json` and
 * the options as `openapi.config.json`, and its `src/generated` is a pure function of the two (the
 * `openapi-sync` generator keeps it so). Everything is checked before anything is written.
 */
export async function openApiGenerator(tree: Tree, options: OpenApiGeneratorSchema): Promise<GeneratorCallback | undefined> {
  const toolset = normalizeToolsetOptions(tree, { name: options.name, directory: options.directory });
  const source = sourceOf(options);
  const { document: read, text } = source ? await fetchDocument(source.source, sourceHeadersFrom(source)) : await readDocumentFile(tree.root, options.spec);
  let document: unknown = read;
  // Refusals name the line of the file as written; a converted Swagger document has no such lines.
  let locate: LocatePointer | undefined = sourceLocator(text);
  if ((document as { swagger?: unknown }).swagger !== undefined) {
    document = await fromSwagger2(document, options.spec);
    locate = undefined;
    logger.info(`${options.spec} is Swagger 2.0: converted to OpenAPI ${(document as { openapi: string }).openapi} with swagger2openapi; the library keeps the converted document.`);
  }
  const config: LibraryConfig = {
    name: options.name,
    ...source,
    ...list('includeTags', options.includeTags),
    ...list('excludeTags', options.excludeTags),
    ...list('include', options.include),
    ...list('exclude', options.exclude),
    ...credentialHeaderOf(options, document),
    ...(options.prefix?.trim() && { prefix: options.prefix.trim() }),
    ...(options.groupBy && { groupBy: groupByOf(options.groupBy) }),
    schemaBudget: options.schemaBudget ?? DEFAULT_SCHEMA_BUDGET,
    tools: {},
  };
  // Generated in memory first: a document the generator cannot use leaves the tree untouched.
  const preview = await generateToolset(options.name, document, config, options.spec, locate);
  if (preview.toolNames.length === 0) throw new Error(`${options.spec} has no operation left after the filters; loosen --includeTags/--include, or check x-mcp.`);

  await toolsetGenerator(tree, {
    name: options.name,
    description: `Tools generated from ${options.spec}.`,
    credentialHeader: config.credentialHeader ? [config.credentialHeader] : [],
    directory: options.directory,
    skipInstall: true,
  });
  for (const scaffold of tree.children(joinPathFragments(toolset.projectRoot, 'src/lib'))) tree.delete(joinPathFragments(toolset.projectRoot, 'src/lib', scaffold));
  for (const scaffold of tree.children(joinPathFragments(toolset.projectRoot, 'test'))) tree.delete(joinPathFragments(toolset.projectRoot, 'test', scaffold));
  tree.write(joinPathFragments(toolset.projectRoot, DOCUMENT_FILE), `${JSON.stringify(document, null, 2)}\n`);
  tree.write(joinPathFragments(toolset.projectRoot, CONFIG_FILE), `${JSON.stringify(config, null, 2)}\n`);
  const generated = await writeGeneratedSources(tree, toolset.projectRoot);
  tree.write(joinPathFragments(toolset.projectRoot, `test/${options.name}.tools.spec.ts`), specFor(options.name, generated.toolsets.map((t) => t.className)));

  // The preview was read with the file's lines at hand: its warnings can name them.
  for (const warning of preview.warnings) logger.warn(`${options.spec}: ${warning}.`);
  for (const left of generated.leftOut) logger.warn(`Left out ${left.operation}: ${left.reason}.`);
  const open = [...generated.openValues].map(([reason, count]) => `${count} × ${reason}`);
  logger.info(`${generated.toolNames.length} tools generated into ${toolset.projectRoot}.${open.length ? ` Open values (schemas the framework cannot express yet): ${open.join('; ')}.` : ''}`);
  if (config.groupBy) logger.info(`${generated.toolsets.length} toolsets, one per tag: ${generated.toolsets.map((t) => `${t.className} (${t.name})`).join(', ')}.`);
  logger.info(sizeReport(tree.root, generated.files, options.name, toolset.packageName, config.schemaBudget));
  requireOpenApiRuntime(tree);
  await formatFiles(tree);
  return options.skipInstall ? undefined : () => installPackagesTask(tree, true);
}

/**
 * The generated code imports `@toolsets/openapi`: a workspace that does not build it (any but the
 * toolsets repository) installs it, at the version this plugin was released with.
 */
function requireOpenApiRuntime(tree: Tree): void {
  if (getProjects(tree).has(OPENAPI_RUNTIME)) return;
  addDependenciesToPackageJson(tree, { [OPENAPI_RUNTIME]: knownVersions(__dirname)[OPENAPI_RUNTIME] }, {}, undefined, true);
}

/**
 * What the catalog costs a model, measured on the real thing: the generated sources compiled in
 * a child process (see gatedCatalogInChild) and gated by the workspace's own core. Where core is not built yet, the
 * contract target (which prints the same) is named instead.
 */
export function sizeReport(workspaceRoot: string, files: Record<string, string>, name: string, projectName: string, budget: number | undefined): string {
  let entries: ReturnType<typeof gatedCatalogInChild>;
  try {
    entries = gatedCatalogInChild(workspaceRoot, files, name);
  } catch (error) {
    const message = (error as Error).message;
    // Core or the OpenAPI runtime not built yet (a first run): nothing is wrong, so only where to look.
    if (/Cannot find module/.test(message)) return `The catalog's size (tools/list bytes, tokens, largest tools) is printed by nx run ${projectName}:contract, which builds what it needs first.`;
    return `The catalog's size (tools/list bytes, tokens, largest tools) is printed by nx run ${projectName}:contract (${message.split('\n')[0]}).`;
  }
  // Sized as tools/list sends them: without what only the contract records.
  const listed = entries.map(({ requiredScopes: _scopes, credentialHeaders: _headers, ...entry }) => entry);
  return [formatCatalogSize(catalogSize(listed)), ...(budget === undefined ? [] : overBudgetReport(listed, budget))].join(' ');
}

/**
 * Entries still over the schema budget once their outputs are cut: their arguments alone need more,
 * and input schemas are never cut (a model must see every argument it can send). The budget is the user's to raise.
 */
function overBudgetReport(entries: readonly { name: string }[], budget: number): string[] {
  const over = catalogSize(entries, entries.length).largest.filter((entry) => entry.bytes > budget);
  if (over.length === 0) return [];
  const n = (value: number) => value.toLocaleString('en');
  return [
    `${over.length} tool${over.length === 1 ? "'s arguments" : "s' arguments"} alone need more than the ${n(budget)}-byte schema budget, and input schemas are never cut, so ` +
      `${over.length === 1 ? 'it is' : 'they are'} advertised over it: ${over.map((entry) => `${entry.name} ${n(entry.bytes)} bytes`).join(', ')}. ` +
      `To keep every entry within a budget, set "schemaBudget": ${over[0].bytes} (or more) in openapi.config.json, or leave the tools out with "exclude".`,
  ];
}

/** A tool's advertised output schema stays under 16 KiB of JSON unless `--schemaBudget` says otherwise. */
export const DEFAULT_SCHEMA_BUDGET = 16_384;

/**
 * The MCP-side credential header: `--credentialHeader`, else derived from the document's security
 * schemes (an apiKey header keeps its own name, with dashes for underscores; an apiKey in the
 * query becomes `x-<name>-<its key>`; a bearer token `x-<name>-token`), else none.
 */
function credentialHeaderOf(options: OpenApiGeneratorSchema, document: unknown): { credentialHeader?: string } {
  if (options.credentialHeader) {
    const header = options.credentialHeader.trim().toLowerCase();
    if (header === 'authorization') {
      throw new Error(
        `--credentialHeader=authorization is refused: MCP's own authorization (the client's OAuth token for this server) uses that header, ` +
          `so the API credential needs a header of its own. Leave --credentialHeader out (this API's would be x-${options.name}-token), or name another, such as x-${options.name}-key.`,
      );
    }
    return { credentialHeader: header };
  }
  const auth = upstreamAuthOf(document);
  if (!auth) return {};
  // Dashes, not underscores: proxies such as nginx drop headers with underscores by default.
  const own = auth.kind === 'api-key-header' ? auth.name.toLowerCase().replace(/_/g, '-') : undefined;
  if (own && own !== 'authorization') return { credentialHeader: own };
  // A query key is named after what it carries (a boards API's `key` from x-boards-key, its `token` from x-boards-token).
  const part = auth.kind === 'api-key-query' ? auth.name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') : '';
  return { credentialHeader: `x-${options.name}-${part || 'token'}` };
}

/** The document's URL and the headers to fetch it with, when `--spec` is a URL; `--specHeader` must come with one. */
function sourceOf(options: OpenApiGeneratorSchema): DocumentSource | undefined {
  const headers = (options.specHeader ?? '').split(',').map((entry) => entry.trim()).filter(Boolean);
  if (!isDocumentUrl(options.spec)) {
    if (headers.length) throw new Error(`--specHeader applies to a --spec URL; ${options.spec} is a file.`);
    return undefined;
  }
  const sourceHeaders: Record<string, string> = {};
  for (const entry of headers) {
    const match = /^([A-Za-z0-9-]+):([A-Z_][A-Z0-9_]*)$/.exec(entry);
    if (!match) throw new Error(`--specHeader=${entry} is not <header>:<ENVIRONMENT_VARIABLE> (for example authorization:PETSTORE_SPEC_TOKEN); the value is read from the variable when fetching and never stored.`);
    sourceHeaders[match[1].toLowerCase()] = match[2];
  }
  return { source: options.spec, ...(headers.length && { sourceHeaders }) };
}

/** A document file as written (its text gives refusals their line numbers) and as parsed. */
async function readDocumentFile(workspaceRoot: string, spec: string): Promise<{ document: unknown; text: string }> {
  const specPath = isAbsolute(spec) ? spec : join(workspaceRoot, spec);
  try {
    return { document: await parse(specPath), text: readFileSync(specPath, 'utf-8') };
  } catch (error) {
    throw new OpenApiDocumentError(spec, (error as Error).message);
  }
}

function list<K extends string>(key: K, value: string | undefined): Partial<Record<K, string[]>> {
  const items = (value ?? '').split(',').map((item) => item.trim()).filter(Boolean);
  return items.length ? ({ [key]: items } as Record<K, string[]>) : {};
}

function groupByOf(value: string): 'tag' {
  if (value !== 'tag') throw new Error(`--groupBy=${value} is not a grouping: use --groupBy=tag (one toolset per tag), or leave it out (one toolset).`);
  return value;
}

/** Written once (never regenerated): the library's own spec, which the author may extend. */
function specFor(name: string, classNames: readonly string[]): string {
  const many = classNames.length > 1;
  return `import { connectToolset } from '@toolsets/testing';
import { ${classNames.join(', ')} } from '../src';

describe('the ${name} toolset${many ? 's' : ''} generated from openapi.json', () => {
  it('lists ${many ? 'their' : 'its'} tools, each with an object-rooted output schema', async () => {
    const toolset = await connectToolset(${many ? `[${classNames.join(', ')}]` : classNames[0]});
    const tools = await toolset.listTools();
    await toolset.close();
    expect(tools.length).toBeGreaterThan(0);
    for (const tool of tools) expect(tool.outputSchema).toMatchObject({ type: 'object' });
  });
});
`;
}

export default openApiGenerator;
