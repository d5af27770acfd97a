import type { DiscoverResult, Implementation, Prompt, Resource, ResourceTemplateType, Tool } from '@modelcontextprotocol/client';
import { GROUPING_EXTENSION, type UpstreamGroup } from './upstream-groups';

/** Where the upstream is: its streamable HTTP endpoint, or the command that starts it over stdio. */
export type UpstreamSource = { url: string } | { command: string; args?: string[]; cwd?: string };

/**
 * What an upstream MCP server offered when the library was generated (`mcp.json`, committed): the
 * contract the library is pinned to. The app serves the library's catalog, never the live one.
 */
export interface UpstreamSnapshot {
  /** The server as it introduced itself. */
  server: Implementation;
  /** The protocol revision the generation spoke with it. */
  protocolVersion: string;
  /** `modern`: it speaks 2026-07-28 (`server/discover`); `legacy`: only the 2025-era `initialize`. */
  era: 'modern' | 'legacy';
  /** Its `server/discover` answer (modern servers): reused at run time, so connecting costs no probe. */
  discover?: DiscoverResult;
  instructions?: string;
  tools: Tool[];
  prompts: Prompt[];
  resources: Resource[];
  resourceTemplates: ResourceTemplateType[];
  /** It completes arguments of its prompts and resource templates (`completions` capability): the library asks it as the user types. */
  completions?: boolean;
  /** Its groups (`groups/list`, the grouping extension), where it declares them: each served as a toolset of the library. */
  groups?: UpstreamGroup[];
  /** Who it says it is in its Server Card, where an HTTP server serves one: identity only, never its endpoints or headers. */
  card?: UpstreamCard;
}

/** The identity fields of a Server Card. */
export interface UpstreamCard {
  name: string;
  title?: string;
  version?: string;
  description?: string;
  websiteUrl?: string;
  repository?: unknown;
}

/** An answer read as it comes (an extension's method has no schema in the SDK); its shape is checked where it is read. */
const ANY_ANSWER = { '~standard': { version: 1, vendor: 'toolsets', validate: (value: unknown) => ({ value }) } };

/** How the generator reaches a live server: a source plus, for HTTP, request headers (never written to disk). */
export interface LiveUpstream {
  source: UpstreamSource;
  headers?: Record<string, string>;
  /** Variables for a stdio child beside the SDK's safe defaults (never written to disk). */
  env?: Record<string, string>;
  timeoutMs?: number;
}

/**
 * Connects with the official client (2026-07-28 `server/discover`, else a 2025-era `initialize`) and
 * reads every page of `tools/list`, and the prompts, resources and templates where the server has
 * them. The client is closed (a stdio child ended) before this returns or throws.
 */
/** The 2026-07-28 tasks extension. */
const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

export async function readUpstream(live: LiveUpstream): Promise<UpstreamSnapshot> {
  const { Client, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
  // Declaring the tasks extension: a 2026-07-28 server then says which tools run as tasks (`execution.taskSupport`), which the library relays as tasks.
  const client = new Client({ name: 'toolsets-workspace-plugin', version: '0.1.0' }, { versionNegotiation: { mode: 'auto' }, capabilities: { extensions: { [TASKS_EXTENSION]: {} } } });
  const timeout = live.timeoutMs ?? 30_000;
  const where = 'url' in live.source ? live.source.url : [live.source.command, ...(live.source.args ?? [])].join(' ');
  try {
    let transport;
    if ('url' in live.source) transport = new StreamableHTTPClientTransport(new URL(live.source.url), { requestInit: { headers: live.headers ?? {} } });
    else {
      const { StdioClientTransport, getDefaultEnvironment } = await import('@modelcontextprotocol/client/stdio');
      transport = new StdioClientTransport({ command: live.source.command, args: live.source.args ?? [], ...(live.source.cwd && { cwd: live.source.cwd }), env: { ...getDefaultEnvironment(), ...live.env }, stderr: 'pipe' });
    }
    try {
      await client.connect(transport, { timeout });
    } catch (error) {
      throw new Error(`Could not connect to the MCP server at ${where}: ${(error as Error).message}. Check that it runs${'url' in live.source ? ' and that the URL is its streamable HTTP endpoint (often ending in /mcp), with --header for its credentials' : ' and that the command starts an MCP server over stdio'}.`);
    }
    const capabilities = client.getServerCapabilities() ?? {};
    const discover = client.getDiscoverResult();
    const pages = async <T>(list: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor?: string }>): Promise<T[]> => {
      const all: T[] = [];
      let cursor: string | undefined;
      const seen = new Set<string>();
      do {
        const page = await list(cursor);
        all.push(...page.items);
        cursor = page.nextCursor;
        if (cursor !== undefined && seen.has(cursor)) throw new Error(`The MCP server at ${where} repeats the cursor ${JSON.stringify(cursor)} in its list pages; its pagination never ends.`);
        if (cursor !== undefined) seen.add(cursor);
      } while (cursor !== undefined);
      return all;
    };
    const listed = capabilities.tools ? await pages(async (cursor) => {
      const page = await client.listTools(cursor === undefined ? {} : { cursor }, { timeout, cacheMode: 'bypass' });
      return { items: page.tools, ...(page.nextCursor && { nextCursor: page.nextCursor }) };
    }) : [];
    // The SDK's 2026-07-28 client leaves a tool's `execution` out as it parses the list; the server's own list says which tools run as tasks.
    const rawList = (params: object) => client.request({ method: 'tools/list', params } as never, ANY_ANSWER as never, { timeout }) as Promise<unknown>;
    const executions = discover && capabilities.tools ? await taskSupports(rawList, pages) : new Map<string, Tool['execution']>();
    const tools = listed.map((tool) => (executions.has(tool.name) ? { ...tool, execution: executions.get(tool.name) } : tool));
    const prompts = capabilities.prompts ? await pages(async (cursor) => {
      const page = await client.listPrompts(cursor === undefined ? {} : { cursor }, { timeout, cacheMode: 'bypass' });
      return { items: page.prompts, ...(page.nextCursor && { nextCursor: page.nextCursor }) };
    }) : [];
    const resources = capabilities.resources ? await pages(async (cursor) => {
      const page = await client.listResources(cursor === undefined ? {} : { cursor }, { timeout, cacheMode: 'bypass' });
      return { items: page.resources, ...(page.nextCursor && { nextCursor: page.nextCursor }) };
    }) : [];
    const resourceTemplates = capabilities.resources ? await pages(async (cursor) => {
      const page = await client.listResourceTemplates(cursor === undefined ? {} : { cursor }, { timeout, cacheMode: 'bypass' });
      return { items: page.resourceTemplates, ...(page.nextCursor && { nextCursor: page.nextCursor }) };
    }) : [];
    // The grouping extension's groups/list, where the server declares the extension (SEP-2084).
    const groups = capabilities.extensions?.[GROUPING_EXTENSION] ? await pages(async (cursor) => {
      const page = (await client.request({ method: 'groups/list', params: cursor === undefined ? {} : { cursor } } as never, ANY_ANSWER as never, { timeout })) as { groups?: unknown; nextCursor?: string };
      const items = Array.isArray(page.groups) ? page.groups.filter((group): group is UpstreamGroup => typeof (group as UpstreamGroup | null)?.name === 'string') : [];
      return { items: items.map(({ name, title, description, _meta }) => ({ name, ...(title && { title }), ...(description && { description }), ...(_meta && { _meta }) })), ...(page.nextCursor && { nextCursor: page.nextCursor }) };
    }) : [];
    const card = 'url' in live.source ? await serverCard(live.source.url, live.headers ?? {}, timeout) : undefined;
    const instructions = client.getInstructions();
    return {
      server: client.getServerVersion() ?? { name: 'unknown', version: '0' },
      protocolVersion: client.getNegotiatedProtocolVersion() ?? 'unknown',
      era: discover ? 'modern' : 'legacy',
      ...(discover && { discover }),
      ...(instructions && { instructions }),
      tools,
      prompts,
      resources,
      resourceTemplates,
      ...(capabilities.completions && { completions: true }),
      ...(groups.length > 0 && { groups }),
      ...(card && { card }),
    };
  } finally {
    await client.close().catch(() => undefined);
  }
}

/** How each tool runs as a task (`execution.taskSupport`), by name, as the server's `tools/list` says it, unparsed. */
async function taskSupports(
  rawList: (params: object) => Promise<unknown>,
  pages: <T>(list: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor?: string }>) => Promise<T[]>,
): Promise<Map<string, Tool['execution']>> {
  const entries = await pages(async (cursor) => {
    const page = (await rawList(cursor === undefined ? {} : { cursor })) as { tools?: unknown; nextCursor?: string };
    const items = (Array.isArray(page.tools) ? page.tools : []).flatMap((tool: { name?: unknown; execution?: { taskSupport?: unknown } } | null) => {
      const support = tool?.execution?.taskSupport;
      return typeof tool?.name === 'string' && (support === 'forbidden' || support === 'optional' || support === 'required') ? [[tool.name, { taskSupport: support }] as const] : [];
    });
    return { items, ...(typeof page.nextCursor === 'string' && { nextCursor: page.nextCursor }) };
  });
  return new Map(entries);
}

/**
 * The server's Server Card, where it serves one: at its endpoint's reserved place
 * (`<endpoint>/server-card`), else at its origin's `/.well-known/mcp/server-card.json`. None when
 * neither answers a JSON card with a name; a card is a courtesy, never a reason to fail.
 */
async function serverCard(endpoint: string, headers: Record<string, string>, timeoutMs: number): Promise<UpstreamCard | undefined> {
  for (const url of [`${endpoint.replace(/\/+$/, '')}/server-card`, new URL('/.well-known/mcp/server-card.json', endpoint).href]) {
    try {
      const response = await fetch(url, { headers: { ...headers, accept: 'application/json' }, signal: AbortSignal.timeout(timeoutMs), redirect: 'error' });
      if (!response.ok) continue;
      const card = (await response.json()) as Record<string, unknown>;
      if (typeof card['name'] !== 'string') continue;
      const text = (key: string) => (typeof card[key] === 'string' ? { [key]: card[key] as string } : {});
      return { name: card['name'], ...text('title'), ...text('version'), ...text('description'), ...text('websiteUrl'), ...(card['repository'] !== undefined && { repository: card['repository'] }) };
    } catch {
      // Not served there, or not JSON: try the next place.
    }
  }
  return undefined;
}
