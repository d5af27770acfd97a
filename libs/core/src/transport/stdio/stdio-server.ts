import { serveStdio as serveSdkStdio } from '@modelcontextprotocol/server/stdio';
import { clip } from '../../helpers/client-text';
import type { Selection } from '../../selection/selection';
import type { ConnectionHandle, ServerDefinition } from '../../server/build-server';
import { LineStdioTransport } from './stdio-line-transport';
import { argumentLimitsOf, resolveServingLimits, type ServingLimits } from '../serving-limits';

export interface StdioServeOptions extends Partial<Pick<ServingLimits, 'maxBodyBytes' | 'maxArgumentItems' | 'maxArgumentStringLength' | 'maxArgumentDepth'>> {
  environment?: NodeJS.ProcessEnv;
  /** The tools this connection sees, and how they are listed (default: every tool, in the server's mode). */
  selection?: Selection;
}

/** A stdio connection: `close()` ends it; `inputEnded` settles when the client ends it (closes the server's stdin). */
export interface StdioConnectionHandle extends ConnectionHandle {
  readonly inputEnded: Promise<void>;
}

/**
 * Serves over this process's stdin/stdout (both eras). stdout carries protocol only: the
 * framework logs to stderr. Credentials come from the environment (`x-demo-token` → `X_DEMO_TOKEN`).
 * A bad or oversized line is answered with a JSON-RPC error, and serving goes on. When the client
 * closes stdin, the connection ends and `inputEnded` settles (`startApp` then shuts the app down).
 */
export function serveStdio(server: ServerDefinition, options: StdioServeOptions = {}): StdioConnectionHandle {
  const { environment = process.env, selection, ...overrides } = options;
  const limits = resolveServingLimits(overrides);
  const transport = new LineStdioTransport(process.stdin, process.stdout, limits.maxBodyBytes, server.logger);
  const factory = server.serverFactory({
    transport: 'stdio',
    subscriptions: true,
    environment,
    argumentLimits: argumentLimitsOf(limits),
    ...(selection && { selection }),
  });
  const handle = serveSdkStdio(factory, {
    transport,
    onerror: (error) => server.logger.warn('stdio connection error', { error: clip(error.message) }),
  });
  return { close: () => handle.close(), inputEnded: transport.inputEnded };
}
