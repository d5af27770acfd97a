import { addDependenciesToPackageJson, formatFiles, getProjects, installPackagesTask, joinPathFragments, logger, type GeneratorCallback, type Tree } from '@nx/devkit';
import { MCP_CONFIG_FILE, MCP_SNAPSHOT_FILE } from '../../mcp/mcp-config';
import { writeMcpSources, type McpLibraryConfig } from '../../mcp/mcp-library-files';
import { generateMcpToolset } from '../../mcp/generate-mcp-toolset';
import { readUpstream, type UpstreamSource } from '../../mcp/upstream-snapshot';
import { knownVersions } from '../../utils/plugin-files';
import { normalizeToolsetOptions, toolsetGenerator } from '../toolset/generator';
import type { McpGeneratorSchema } from './schema';

const MCP_RUNTIME = '@toolsets/mcp-upstream';

/**
 * A toolset library from a live MCP server: the generator connects with the official client, reads
 * every tool (and what else the server offers) into `mcp.json`, the contract the library is pinned
 * to, writes the options as `mcp.config.json`, and generates `src/generated` from the two (the
 * global sync generator keeps it so). Everything is checked before anything is written.
 */
export async function mcpGenerator(tree: Tree, options: McpGeneratorSchema): Promise<GeneratorCallback | undefined> {
  const toolset = normalizeToolsetOptions(tree, { name: options.name, directory: options.directory });
  const source = sourceOf(options);
  const secrets = secretsOf(options);
  const values = secretValues(secrets);
  const snapshot = await readUpstream({ source, ...('url' in source ? { headers: values } : { env: values }) });
  const config: McpLibraryConfig = {
    name: options.name,
    source,
    ...(Object.keys(secrets).length && { secrets }),
    ...(options.prefix?.trim() && { prefix: options.prefix.trim() }),
    ...list('include', options.include),
    ...list('exclude', options.exclude),
    tools: {},
  };
  // Generated in memory first: a server the generator cannot use leaves the tree untouched.
  const preview = generateMcpToolset(options.name, snapshot, config);
  const server = `${snapshot.server.title ?? snapshot.server.name} ${snapshot.server.version}`;
  await toolsetGenerator(tree, { name: options.name, description: `Tools of the MCP server ${server}.`, directory: options.directory, skipInstall: true });
  for (const scaffold of tree.children(joinPathFragments(toolset.projectRoot, 'src/lib'))) tree.delete(joinPathFragments(toolset.projectRoot, 'src/lib', scaffold));
  for (const scaffold of tree.children(joinPathFragments(toolset.projectRoot, 'test'))) tree.delete(joinPathFragments(toolset.projectRoot, 'test', scaffold));
  tree.write(joinPathFragments(toolset.projectRoot, MCP_SNAPSHOT_FILE), `${JSON.stringify(snapshot, null, 2)}\n`);
  tree.write(joinPathFragments(toolset.projectRoot, MCP_CONFIG_FILE), `${JSON.stringify(config, null, 2)}\n`);
  writeMcpSources(tree, toolset.projectRoot);
  tree.write(joinPathFragments(toolset.projectRoot, `test/${options.name}.tools.spec.ts`), specFor(options.name, preview.className));

  for (const warning of preview.warnings) logger.warn(`${options.name}: ${warning}.`);
  const open = [...preview.openValues].map(([reason, count]) => `${count} × ${reason}`);
  const withoutSchema = snapshot.tools.filter((tool) => preview.toolNames[tool.name] !== undefined && !tool.outputSchema).map((tool) => tool.name);
  logger.info(
    `${Object.keys(preview.toolNames).length} tools of ${server} (${snapshot.era === 'modern' ? snapshot.protocolVersion : `${snapshot.protocolVersion}, a 2025-era server`}) generated into ${toolset.projectRoot}.` +
      (withoutSchema.length ? ` ${withoutSchema.length} declare no output schema and are served with content-only results: ${withoutSchema.join(', ')}.` : '') +
      (open.length ? ` Open values (schemas the framework cannot express yet): ${open.join('; ')}.` : ''),
  );
  const members = [snapshot.prompts.length && `${snapshot.prompts.length} prompts`, snapshot.resources.length && `${snapshot.resources.length} resources`, snapshot.resourceTemplates.length && `${snapshot.resourceTemplates.length} resource templates`].filter(Boolean);
  if (members.length) logger.info(`The server also offers ${members.join(', ')}: served by the library beside its tools ("prompts": false or "resources": false in ${MCP_CONFIG_FILE} leaves them out).`);
  if (preview.classNames.length > 1) logger.info(`Its groups split its tools: served as ${preview.classNames.length} toolsets (${preview.classNames.join(', ')}), one upstream connection; list every one in an app's toolsets.`);
  requireRuntime(tree);
  await formatFiles(tree);
  return options.skipInstall ? undefined : () => installPackagesTask(tree, true);
}

function sourceOf(options: McpGeneratorSchema): UpstreamSource {
  const url = options.url?.trim();
  const command = options.command?.trim();
  if (url && command) throw new Error('Give --url (a streamable HTTP server) or --command (a stdio server), not both.');
  if (url) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new Error(`--url=${url} is not an absolute URL; give the server's streamable HTTP endpoint, such as https://mcp.example.com/mcp.`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error(`--url=${url} must be an http or https URL.`);
    if (parsed.username || parsed.password) throw new Error(`--url must not carry credentials (they would be written to ${MCP_CONFIG_FILE}); pass them with --header=<header>:<ENVIRONMENT_VARIABLE>.`);
    return { url };
  }
  if (command) {
    const [executable, ...args] = command.split(/\s+/);
    return { command: executable!, ...(args.length && { args }) };
  }
  throw new Error('Say where the MCP server is: --url=<its streamable HTTP endpoint> or --command="<the command that starts it over stdio>".');
}

/** `--header=authorization:EVERYTHING_TOKEN,x-team:TEAM_ID` → `{ authorization: 'EVERYTHING_TOKEN', … }`: names only. */
function secretsOf(options: McpGeneratorSchema): Record<string, string> {
  const secrets: Record<string, string> = {};
  for (const entry of (options.header ?? '').split(',').map((item) => item.trim()).filter(Boolean)) {
    const match = /^([A-Za-z0-9_-]+):([A-Z_][A-Z0-9_]*)$/.exec(entry);
    if (!match) throw new Error(`--header=${entry} is not <header>:<ENVIRONMENT_VARIABLE> (for example authorization:EVERYTHING_TOKEN); the value is read from the variable and never written down.`);
    secrets[options.url ? match[1]!.toLowerCase() : match[1]!] = match[2]!;
  }
  return secrets;
}

function secretValues(secrets: Record<string, string>): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [key, variable] of Object.entries(secrets)) {
    const value = process.env[variable];
    if (!value) throw new Error(`${variable} is not set: --header names it for the upstream's ${key}. Set it in the environment you run the generator in.`);
    values[key] = value;
  }
  return values;
}

/** The generated code imports `@toolsets/mcp-upstream`: a workspace that does not build it installs it. */
function requireRuntime(tree: Tree): void {
  if (getProjects(tree).has(MCP_RUNTIME)) return;
  const version = knownVersions(__dirname)[MCP_RUNTIME];
  if (version) addDependenciesToPackageJson(tree, { [MCP_RUNTIME]: version }, {}, undefined, true);
}

function list<K extends string>(key: K, value: string | undefined): Partial<Record<K, string[]>> {
  const items = (value ?? '').split(',').map((item) => item.trim()).filter(Boolean);
  return items.length ? ({ [key]: items } as Record<K, string[]>) : {};
}

/** Written once (never regenerated): the library's own spec, which the author may extend. */
function specFor(name: string, className: string): string {
  return `import { connectToolset } from '@toolsets/testing';
import { ${className} } from '../src';

describe('the ${name} toolset generated from mcp.json', () => {
  it('lists its tools, each with an object-rooted output schema', async () => {
    const toolset = await connectToolset(${className});
    const tools = await toolset.listTools();
    await toolset.close();
    expect(tools.length).toBeGreaterThan(0);
    for (const tool of tools) expect(tool.outputSchema).toMatchObject({ type: 'object' });
  });
});
`;
}

export default mcpGenerator;
