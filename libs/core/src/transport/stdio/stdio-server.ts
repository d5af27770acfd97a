import type { Readable, Writable } from 'node:stream';
import { serveStdio as serveSdkStdio } from '@modelcontextprotocol/server/stdio';
import { clip } from '../../helpers/client-text';
import type { Selection } from '../../selection/selection';
import type { ConnectionHandle, ServerDefinition } from '../../server/build-server';
import type { TaskAnsweringServer } from '../../wire/task-answer';
import { LineStdioTransport } from './stdio-line-transport';
import { StdioFastCalls } from './stdio-fast-calls';
import { argumentLimitsOf, resolveServingLimits, type ServingLimits } from '../serving-limits';

export interface StdioServeOptions extends Partial<Pick<ServingLimits, 'maxBodyBytes' | 'maxArgumentItems' | 'maxArgumentStringLength' | 'maxArgumentDepth'>> {
  environment?: NodeJS.ProcessEnv;
  /**
   * The fast path (on by default; `MCP_FAST_PATH=off` for an app): a plain `tools/call` is answered
   * by the connection's instance without the SDK's line parsing, dispatch and protocol layer, with
   * the same bytes (docs/architecture.md, "The call path over stdio").
   */
  fastPath?: boolean;
  /** Where messages come from and go to (default: this process's stdin and stdout). */
  input?: Readable;
  output?: Writable;
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
  const { environment = process.env, selection, fastPath = true, input = process.stdin, output = process.stdout, ...overrides } = options;
  const limits = resolveServingLimits(overrides);
  const transport = new LineStdioTransport(input, output, limits.maxBodyBytes, server.logger);
  const connection = {
    transport: 'stdio' as const,
    subscriptions: true,
    environment,
    argumentLimits: argumentLimitsOf(limits),
    ...(selection && { selection }),
  };
  const make = server.serverFactory(connection);
  const selected = selection ? server.views.view(selection) : server.views.whole;
  // Discovery and code mode list and call tools of their own: the SDK's path serves them.
  const fast = fastPath && selected.selection.mode === 'tools' ? new StdioFastCalls(server.directCalls(connection), selected, (line) => transport.writeLine(line)) : undefined;
  if (fast) transport.fast = fast;
  const factory: typeof make = (context) => {
    const made = make(context);
    if (context?.era) fast?.made(context.era, made as TaskAnsweringServer);
    return made;
  };
  const handle = serveSdkStdio(factory, {
    transport,
    onerror: (error) => server.logger.warn('stdio connection error', { error: clip(error.message) }),
  });
  return { close: () => handle.close(), inputEnded: transport.inputEnded };
}
