import { ProtocolError, ProtocolErrorCode, type Server } from '@modelcontextprotocol/server';
import type { ToolCatalog } from '../../compiled/tool-catalog';
import { clip } from '../../helpers/client-text';
import type { Logger } from '../logging/logger';
import { matchResource } from './resource-match';

/** Tells subscribed clients that a resource changed; inject it with `@inject(RESOURCE_UPDATES)`. */
export interface ResourceUpdates {
  /** Sends `notifications/resources/updated` for `uri` to every connection subscribed to it. */
  updated(uri: string): Promise<void>;
}

/**
 * Told when a resource URI gains its first subscriber on a server and loses its last, for what
 * learns of changes elsewhere (an upstream MCP server the resource comes from): it calls
 * `changed` whenever the resource changes, until `unwatch`. Register one under
 * `RESOURCE_WATCHERS` (every registration is told, each filtering the URIs it knows).
 */
export interface ResourceWatcher {
  watch(uri: string, changed: () => Promise<void>): void | Promise<void>;
  unwatch(uri: string, changed: () => Promise<void>): void | Promise<void>;
}

/** The tsyringe token `ResourceWatcher`s are registered under (`resolveAll`). */
export const RESOURCE_WATCHERS = Symbol('toolsets.ResourceWatchers');

/** URIs one connection may watch at once: a template matches endless URIs, memory must not. */
export const MAX_SUBSCRIPTIONS_PER_CONNECTION = 1_000;

/** The tsyringe token of the server's `ResourceUpdates`. */
export const RESOURCE_UPDATES = Symbol('toolsets.ResourceUpdates');

/**
 * Who subscribed to which resource URI. Only connections that outlive a request subscribe (stdio,
 * in memory, 2025-era HTTP sessions); a stateless HTTP server is gone when its request ends.
 */
export class ResourceSubscriptions implements ResourceUpdates {
  readonly #byUri = new Map<string, Set<Server>>();
  /** Each watched URI's `changed`, the same function for its watch and its unwatch. */
  readonly #changed = new Map<string, () => Promise<void>>();

  constructor(
    private readonly catalog: ToolCatalog,
    private readonly logger: Logger,
    /** The `ResourceWatcher`s registered, asked for when a URI is first subscribed to. */
    private readonly watchers: () => readonly ResourceWatcher[] = () => [],
  ) {}

  /** `resources/subscribe` and `resources/unsubscribe` for one SDK `Server` instance. */
  handlers(server: Server) {
    const mine = new Set<string>();
    const previous = server.onclose;
    server.onclose = () => {
      for (const uri of mine) void this.#leave(uri, server);
      mine.clear();
      previous?.();
    };
    return {
      subscribe: async (request: { params: { uri: string } }) => {
        const uri = request.params.uri;
        if (!this.known(uri)) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `No resource matches '${clip(uri)}'; resources/list and resources/templates/list say what there is.`);
        if (!mine.has(uri) && mine.size >= MAX_SUBSCRIPTIONS_PER_CONNECTION) {
          throw new ProtocolError(ProtocolErrorCode.InvalidParams, `This connection already watches ${MAX_SUBSCRIPTIONS_PER_CONNECTION} resources; unsubscribe from some first.`);
        }
        let servers = this.#byUri.get(uri);
        if (!servers) this.#byUri.set(uri, (servers = new Set()));
        const first = servers.size === 0;
        servers.add(server);
        mine.add(uri);
        // Answered once what watches it elsewhere (an upstream) does: an update after this answer reaches the client.
        if (first) await this.#tellWatchers('watch', uri);
        return {};
      },
      unsubscribe: async (request: { params: { uri: string } }) => {
        if (mine.delete(request.params.uri)) await this.#leave(request.params.uri, server);
        return {};
      },
    };
  }

  /** `server` no longer watches `uri`; with no one left, neither do the watchers. */
  async #leave(uri: string, server: Server): Promise<void> {
    const servers = this.#byUri.get(uri);
    if (!servers?.delete(server) || servers.size > 0) return;
    this.#byUri.delete(uri);
    await this.#tellWatchers('unwatch', uri);
  }

  /** Settles once every watcher has; a watcher's failure (an upstream that refuses the subscription) is logged, and the subscription here stands. */
  async #tellWatchers(what: 'watch' | 'unwatch', uri: string): Promise<void> {
    const watchers = this.watchers();
    if (watchers.length === 0) return;
    if (what === 'watch') this.#changed.set(uri, () => this.updated(uri));
    const changed = this.#changed.get(uri);
    if (!changed) return;
    if (what === 'unwatch') this.#changed.delete(uri);
    await Promise.all(
      watchers.map((watcher) =>
        Promise.resolve()
          .then(() => watcher[what](uri, changed))
          .catch((error: unknown) => this.logger.warn(`a resource watcher could not ${what} a resource`, { uri: clip(uri), error: clip(error instanceof Error ? error.message : String(error)) })),
      ),
    );
  }

  async updated(uri: string): Promise<void> {
    const servers = [...(this.#byUri.get(uri) ?? [])];
    await Promise.all(
      servers.map((server) =>
        server.notification({ method: 'notifications/resources/updated', params: { uri } }).catch((error: Error) => {
          this.logger.warn('could not send a resource update', { uri: clip(uri), error: clip(error.message) });
        }),
      ),
    );
  }

  private known(uri: string): boolean {
    return matchResource(this.catalog, uri) !== undefined;
  }
}
