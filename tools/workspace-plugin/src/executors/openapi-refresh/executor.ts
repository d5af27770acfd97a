import type { ExecutorContext } from '@nx/devkit';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { countBySeverity, formatChanges } from '../../contract/change-report';
import { compareCatalogs } from '../../contract/compare-catalogs';
import { withRecordedMeta } from '../../contract/catalog-entries';
import { plural, readVersion } from '../../contract/package-version';
import { SNAPSHOT_FILE, parseSnapshot, snapshotOf, type ToolEntry } from '../../contract/snapshot';
import { checkVersion } from '../../contract/version-check';
import { DocumentFetchError, fetchDocument, sourceHeadersFrom } from '../../openapi/fetch-document';
import { generateToolset } from '../../openapi/generate-toolset';
import { CONFIG_FILE, DOCUMENT_FILE, overlaidDocument, type LibraryConfig } from '../../openapi/library-files';
import { gatedCatalogInChild } from '../../openapi/load-generated';
import { fromSwagger2 } from '../../openapi/swagger2';
import type { OpenApiRefreshExecutorSchema } from './schema';
import { flushed } from '../../utils/flushed-output';

/**
 * `openapi-refresh`: fetches a generated library's source document again and, when it changed,
 * says what that does to the catalog clients see, by the same rules as the contract target
 * (breaking, dangerous, safe). A breaking change the package version does not cover is refused
 * before anything is written, as a hand-written one is; otherwise `openapi.json` is rewritten and
 * `nx sync` regenerates the code, and the contract target records the catalog (asking for the
 * version any change needs). With `--check` nothing is written and a changed document fails.
 */
export default async function openApiRefreshExecutor(options: OpenApiRefreshExecutorSchema, context: ExecutorContext): Promise<{ success: boolean }> {
  // Everything printed reaches the user before Nx ends the executor's process.
  return flushed(await run(options, context));
}

async function run(options: OpenApiRefreshExecutorSchema, context: ExecutorContext): Promise<{ success: boolean }> {
  const projectName = context.projectName ?? 'toolset';
  const projectRoot = context.projectsConfigurations?.projects[projectName]?.root ?? '.';
  const file = (name: string) => join(context.root, projectRoot, name);
  const config = JSON.parse(readFileSync(file(CONFIG_FILE), 'utf-8')) as LibraryConfig;
  const source = config.source;
  if (!source) {
    return fail(`${projectRoot}/${CONFIG_FILE} records no "source": ${projectName} was generated from a file. Regenerate it with --spec=<the document's URL>, or add "source": "https://…" to ${CONFIG_FILE}.`);
  }

  let document: unknown;
  try {
    document = (await fetchDocument(source, sourceHeadersFrom({ source, sourceHeaders: config.sourceHeaders }), { timeoutMs: options.timeoutMs, maxBytes: options.maxBytes })).document;
  } catch (error) {
    if (error instanceof DocumentFetchError) return fail(error.message);
    throw error;
  }
  if ((document as { swagger?: unknown }).swagger !== undefined) document = await fromSwagger2(document, source);
  const text = `${JSON.stringify(document, null, 2)}\n`;
  if (existsSync(file(DOCUMENT_FILE)) && readFileSync(file(DOCUMENT_FILE), 'utf-8') === text) {
    console.log(`${projectRoot}/${DOCUMENT_FILE} matches ${source}: nothing changed upstream.`);
    return { success: true };
  }

  const packageFile = `${projectRoot}/package.json`;
  const version = readVersion(file('package.json'));
  if (version === undefined) return fail(`${packageFile} has no "version"; add "version": "0.1.0".`);
  let tools: ToolEntry[];
  try {
    const overlaid = await overlaidDocument(document, config, (name) => (existsSync(file(name)) ? readFileSync(file(name), 'utf-8') : undefined), projectRoot);
    tools = await catalogOf(context.root, config, overlaid);
  } catch (error) {
    return fail(`The document at ${source} changed into one the generator or the startup gate refuses:\n${(error as Error).message}`);
  }
  if (!existsSync(file(SNAPSHOT_FILE))) {
    return fail(`${projectRoot}/${SNAPSHOT_FILE} is missing, so the upstream's changes cannot be classified: run nx run ${projectName}:contract first to record the current catalog, and commit it.`);
  }
  const previous = parseSnapshot(readFileSync(file(SNAPSHOT_FILE), 'utf-8'), `${projectRoot}/${SNAPSHOT_FILE}`);
  const changes = compareCatalogs(previous.tools, snapshotOf(version, tools).tools, previous.records);
  console.log(`${source} changed since ${projectRoot}/${DOCUMENT_FILE}.`);
  if (changes.length === 0) console.log('The catalog it generates is the same (the change is in parts no tool uses).');
  else {
    console.log(`${plural(changes.length, 'change')} to the catalog since ${SNAPSHOT_FILE} (version ${previous.version}): ${countBySeverity(changes)}.`);
    for (const line of formatChanges(changes, previous.version)) console.log(`  ${line}`);
  }
  const verdict = checkVersion(previous.version, version, changes, packageFile);

  if (options.check) {
    console.error(`--check: nothing written. ${verdict.ok ? `Refreshing is ${verdict.message}.` : verdict.message} Run nx run ${projectName}:openapi-refresh to take the new document.`);
    return { success: false };
  }
  // Breaking changes wait for the version; the rest is taken, and the contract target asks for its bump as for any change.
  const breaking = changes.filter((change) => change.severity === 'breaking').length;
  if (breaking > 0 && !verdict.ok) {
    return fail(`Not refreshed, nothing written: the upstream made ${plural(breaking, 'breaking change')} for clients. ${verdict.message} Then run nx run ${projectName}:openapi-refresh again.`);
  }

  writeFileSync(file(DOCUMENT_FILE), text);
  // The running task's own Nx settings must not reach the nested run.
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^NX_TASK|^NX_.*_TARGET/.test(key)));
  const sync = spawnSync(process.execPath, [require.resolve('nx/bin/nx', { paths: [context.root] }), 'sync'], { cwd: context.root, encoding: 'utf-8', env: { ...env, NX_DAEMON: 'false' } });
  if (sync.status !== 0) return fail(`Wrote ${projectRoot}/${DOCUMENT_FILE}, but nx sync failed, so the generated code is stale:\n${sync.stdout}${sync.stderr}`);
  console.log(`Wrote ${projectRoot}/${DOCUMENT_FILE} and regenerated its code (nx sync).`);
  if (changes.length > 0) {
    const bump = verdict.ok ? '' : ` ${verdict.message}`;
    console.log(`Record the catalog with nx run ${projectName}:contract --update and commit it with the document and the code: the contract.json diff is what reviewers read.${bump}`);
  }
  return { success: true };
}

/** The tools a document generates, built by the workspace's own core through the startup gate, as the contract target records them. */
async function catalogOf(workspaceRoot: string, config: LibraryConfig, document: unknown): Promise<ToolEntry[]> {
  const generated = await generateToolset(config.name, document, config, config.source);
  return gatedCatalogInChild(workspaceRoot, generated.files, config.name).map((entry) => withRecordedMeta(entry));
}

function fail(message: string): { success: false } {
  console.error(message);
  return { success: false };
}
