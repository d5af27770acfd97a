import { performance } from 'node:perf_hooks';
import type { ServerFactory } from '../contenders/hello-contenders';

type Handler = (request: unknown, ctx: unknown) => Promise<unknown>;

/**
 * The server side alone: the `tools/call` handler each server registered (the SDK's wrapped one,
 * with its own request and result validation), called directly with no transport or client, so
 * differences of a microsecond are not lost in the end-to-end noise. Reads the SDK's private
 * handler table: fine for a benchmark, never for product code.
 */
export function handlerOf(factory: ServerFactory): (args: Record<string, unknown>, tool: string) => Promise<unknown> {
  const server = factory() as unknown as { server?: unknown };
  const low = (server.server ?? server) as { _requestHandlers: Map<string, Handler> };
  const handler = low._requestHandlers.get('tools/call')!;
  const ctx = {
    sessionId: undefined,
    http: undefined,
    mcpReq: { id: 1, method: 'tools/call', _meta: undefined, signal: new AbortController().signal, requestState: () => undefined, notify: async () => undefined, send: async () => undefined },
  };
  return (args, tool) => handler({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: tool, arguments: args } }, ctx);
}

export async function timeHandler(call: () => Promise<unknown>, calls: number): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < calls; i++) await call();
  return ((performance.now() - start) * 1000) / calls;
}
