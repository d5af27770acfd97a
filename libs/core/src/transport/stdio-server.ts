import { serveStdio as serveSdkStdio } from '@modelcontextprotocol/server/stdio';
import type { ConnectionHandle, ToolsetServer } from '../server/build-server';

/**
 * Serves over this process's stdin/stdout (both eras). stdout carries protocol only: the
 * framework logs to stderr. Credentials come from the environment (`x-demo-token` → `X_DEMO_TOKEN`).
 */
export function serveStdio(server: ToolsetServer, environment: NodeJS.ProcessEnv = process.env): ConnectionHandle {
  const handle = serveSdkStdio(server.serverFactory({ transport: 'stdio', environment }), {
    onerror: (error) => server.logger.warn('stdio connection error', { error: error.message }),
  });
  return { close: () => handle.close() };
}
