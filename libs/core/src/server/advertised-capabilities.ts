import { servesResources, type ToolCatalog } from '../compiled/tool-catalog';
import { VIEW_MIME_TYPE, VIEWS_EXTENSION } from '../metadata/tool-view';
import { GROUPING_EXTENSION } from '../wire/grouping';
import type { BuildServerOptions, CacheScope, ConnectionOptions } from './build-server-options';
import type { ServerCardOptions } from './server-card-options';
import { TASKS_EXTENSION } from './tasks/task-wire';

/* What a server advertises (capabilities, extensions, cache hints), and how it differs by protocol era. */

/** The operations whose 2026-07-28 results carry `ttlMs` and `cacheScope`. */
type CacheableResultMethod = 'tools/list' | 'prompts/list' | 'resources/list' | 'resources/templates/list' | 'resources/read' | 'server/discover';

/** What the server offers, from what the catalog holds. */
export function capabilitiesOf(catalog: ToolCatalog, hasTasks: boolean) {
  const hasResources = servesResources(catalog);
  return {
    tools: {},
    // Tasks: the 2026-07-28 extension, and the 2025-11-25 revision's capability (each era reads its own).
    ...(extensionsOf(catalog, hasTasks) && { extensions: extensionsOf(catalog, hasTasks) }),
    ...(hasTasks && { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } }),
    logging: {},
    ...(catalog.prompts.size > 0 && { prompts: {} }),
    ...(hasResources && { resources: {} }),
    ...((catalog.prompts.size > 0 || catalog.templates.length > 0) && { completions: {} }),
  };
}

/**
 * What a connection's server advertises in each era: the server's options, with subscriptions for
 * a connection that outlives a request, and the extensions its mount adds (OAuth client
 * credentials), each set made once.
 */
export function advertisedEras<T extends { capabilities: { extensions?: Record<string, unknown>; tasks?: unknown } }>(
  serving: T,
  subscribing: T,
  listTtlMs: number,
): (connection: ConnectionOptions) => Record<'modern' | 'legacy' | 'either', T> {
  const hinted = (options: T, cacheScope: CacheScope) => ({ ...options, cacheHints: cacheHintsOf(listTtlMs, cacheScope) });
  const servingByEra = byEra(hinted(serving, 'private'));
  const subscribingByEra = byEra(hinted(subscribing, 'private'));
  const own = new WeakMap<ConnectionOptions, Record<'modern' | 'legacy' | 'either', T>>();
  return (connection) => {
    if (!connection.extensions && connection.cacheScope !== 'public') return connection.subscriptions ? subscribingByEra : servingByEra;
    let eras = own.get(connection);
    if (!eras) {
      const base = hinted(connection.subscriptions ? subscribing : serving, connection.cacheScope ?? 'private');
      own.set(connection, (eras = byEra(connection.extensions ? withExtensions(base, connection.extensions) : base)));
    }
    return eras;
  };
}

/** The 2026-07-28 cache fields of the lists and `server/discover` (the SDK fills them in from these). */
function cacheHintsOf(ttlMs: number, cacheScope: CacheScope): Partial<Record<CacheableResultMethod, { ttlMs: number; cacheScope: CacheScope }>> {
  const hint = { ttlMs, cacheScope };
  return { 'tools/list': hint, 'prompts/list': hint, 'resources/list': hint, 'resources/templates/list': hint, 'server/discover': hint };
}

/** What a definition says of itself beyond its catalog: its instructions, its Server Card's options, the extensions it speaks. */
export function described({ instructions, card }: BuildServerOptions, capabilities: { extensions?: object }): { instructions?: string; card: ServerCardOptions | false; extensions: string[] } {
  return { ...(instructions !== undefined && { instructions }), card: card ?? {}, extensions: Object.keys(capabilities.extensions ?? {}) };
}

/** `options` advertising `extensions` besides its own. */
function withExtensions<T extends { capabilities: { extensions?: Record<string, unknown> } }>(options: T, extensions: Readonly<Record<string, object>>): T {
  return { ...options, capabilities: { ...options.capabilities, extensions: { ...options.capabilities.extensions, ...extensions } } };
}

function byEra<T extends { capabilities: { extensions?: Record<string, unknown>; tasks?: unknown } }>(options: T): Record<'modern' | 'legacy' | 'either', T> {
  return { modern: advertisedFor('modern', options), legacy: advertisedFor('legacy', options), either: options };
}

/**
 * What a server instance advertises, when its era is known: a 2025-era session sees the 2025-11-25
 * `tasks` capability and not the 2026-07-28 tasks extension, a 2026-07-28 request the other way
 * round; a connection whose era is negotiated later (stdio, in memory) keeps both.
 */
function advertisedFor<T extends { capabilities: { extensions?: Record<string, unknown>; tasks?: unknown } }>(era: 'modern' | 'legacy', options: T): T {
  const { extensions, tasks } = options.capabilities;
  if (era === 'modern' && tasks !== undefined) {
    const { tasks: _legacyTasks, ...capabilities } = options.capabilities;
    return { ...options, capabilities };
  }
  if (era === 'legacy' && extensions?.[TASKS_EXTENSION] !== undefined) {
    const { [TASKS_EXTENSION]: _modernTasks, ...others } = extensions;
    const { extensions: _all, ...rest } = options.capabilities;
    return { ...options, capabilities: Object.keys(others).length > 0 ? { ...rest, extensions: others } : rest };
  }
  return options;
}

/** The extensions the server speaks: grouping, tasks (2026-07-28) when a tool runs as one, MCP Apps when a tool has a view. */
function extensionsOf(catalog: ToolCatalog, hasTasks: boolean): Record<string, Record<string, string[]>> | undefined {
  const extensions: Record<string, Record<string, string[]>> = {
    // Every catalog is grouped by toolset: groups/list, and each primitive's _meta names its group.
    [GROUPING_EXTENSION]: {},
    ...(hasTasks && { [TASKS_EXTENSION]: {} }),
    ...(catalog.toolViews.size > 0 && { [VIEWS_EXTENSION]: { mimeTypes: [VIEW_MIME_TYPE] } }),
  };
  return Object.keys(extensions).length > 0 ? extensions : undefined;
}
