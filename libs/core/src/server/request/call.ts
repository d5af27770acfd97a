import type { LoggingLevel, Server, ServerContext } from '@modelcontextprotocol/server';
import type { CallChannel } from '../../context/request-context-of';
import type { CatalogSlice } from '../../selection/catalog-slice';
import { originOfRequest, type CallOrigin } from './call-origin';
import type { CallSite, ServingSite } from './call-site';

const QUIET = Promise.resolve();

/**
 * One request into a toolset member (a tool, a prompt, a resource), made once where its handler
 * starts and handed down whole: where it came in, its origin (who calls, how, with what), its signal,
 * the SDK's context of the request (a task's call, run later and anywhere, has none) and what the
 * handling learns of it on the way (its arguments, whether `task.start()` makes it a task).
 * The one place a call's facts live: nothing is kept beside the SDK's objects.
 */
export class Call implements CallChannel {
  /** The arguments a 2026-07-28 call's sealed `requestState` is bound to. */
  arguments: unknown = null;
  /** An `askFirst` task tool called by a client that wants a task: its `task.start()` makes it one. */
  startsAsTask = false;

  private constructor(
    readonly site: CallSite,
    readonly server: Server,
    readonly origin: CallOrigin,
    readonly signal: AbortSignal,
    /** The SDK's context of the request; absent for a task's call. */
    readonly request: ServerContext | undefined,
  ) {}

  /** The call a request handler of `server` (made for `site`) is given `ctx` for. */
  static ofRequest(site: CallSite, ctx: ServerContext, server: Server): Call {
    return new Call(site, server, originOfRequest(site, ctx, server), ctx.mcpReq.signal, ctx);
  }

  /**
   * A task's call, made from what its record kept, in whichever process runs it: the task's own
   * signal, and nothing sent to the client on the side (a task reports through its status and asks
   * through its input requests).
   */
  static detached(site: CallSite, origin: CallOrigin, signal: AbortSignal, server: Server): Call {
    return new Call(site, server, origin, signal, undefined);
  }

  /** What of the catalog this call may see: its origin's view, else its server's. */
  view(this: Call & { site: ServingSite }): CatalogSlice {
    return this.origin.view ?? this.site.served.view;
  }

  /** The JSON-RPC method the request called (`tools/call`, `prompts/get`, …). */
  get method(): string {
    return this.request?.mcpReq.method ?? 'tools/call';
  }

  get progressToken(): string | number | undefined {
    return this.request?.mcpReq._meta?.progressToken;
  }

  notify(notification: { method: 'notifications/progress'; params: Record<string, unknown> }): Promise<void> {
    return this.request ? this.request.mcpReq.notify(notification as never) : QUIET;
  }

  log(level: LoggingLevel, data: unknown, logger?: string): Promise<void> {
    return this.request ? this.request.mcpReq.log(level, data, logger) : QUIET;
  }
}
