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

  constructor(
    private readonly catalog: ToolCatalog,
    private readonly logger: Logger,
  ) {}

  /** `resources/subscribe` and `resources/unsubscribe` for one SDK `Server` instance. */
  handlers(server: Server) {
    const mine = new Set<string>();
    const previous = server.onclose;
    server.onclose = () => {
      for (const uri of mine) this.#byUri.get(uri)?.delete(server);
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
        servers.add(server);
        mine.add(uri);
        return {};
      },
      unsubscribe: async (request: { params: { uri: string } }) => {
        this.#byUri.get(request.params.uri)?.delete(server);
        mine.delete(request.params.uri);
        return {};
      },
    };
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
