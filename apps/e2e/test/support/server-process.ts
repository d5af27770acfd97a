import { resolve } from 'node:path';
import { startServerCommand as startCommand, type ServerProcess } from '@toolsets/testing';

export { logMessage, type ServerProcess } from '@toolsets/testing';

export const workspaceRoot = resolve(__dirname, '../../../..');

/** The built entry point of an app (`nx build <app>` writes it to `apps/<app>/dist`). */
export const appMain = (app: string) => resolve(workspaceRoot, 'apps', app, 'dist/main.js');

/** `@toolsets/testing`'s startServerProcess, run from the workspace root. */
export function startServerProcess(script: string, env: Record<string, string> = {}, cwd = workspaceRoot): Promise<ServerProcess> {
  return startCommand([process.execPath, script], env, cwd);
}

/** The same for any command line (a Dockerfile's `CMD`, say), from the workspace root. */
export function startServerCommand(command: readonly string[], env: Record<string, string> = {}, cwd = workspaceRoot): Promise<ServerProcess> {
  return startCommand(command, env, cwd);
}
