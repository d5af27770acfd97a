#!/usr/bin/env node
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { ServerDefinition } from '@toolsets/core';
import { apiModule } from '../declarations/api-module';
import { declaredTool } from '../declarations/declared-tool';

const USAGE = `Usage: toolsets-api-types <app folder> [--server=<name>] [--out=<file>]

Writes the TypeScript declarations of an app's tools (api.d.ts): the types code mode checks
programs against, and what typedApi<Api>(client) from @toolsets/code-mode calls the server with.
The app must be built: its dist/servers.js exports buildServers(), as the contract target reads it.`;

/** `toolsets-api-types apps/demo-server --server=demo --out=apps/demo-server/dist/api.d.ts`. */
function main(argv: readonly string[]): number {
  const [app, ...options] = argv;
  if (!app || app === '--help' || app.startsWith('--')) {
    process.stderr.write(`${USAGE}\n`);
    return app === '--help' ? 0 : 2;
  }
  const option = (name: string) => options.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
  const unknown = options.filter((arg) => !/^--(server|out)=./.test(arg));
  if (unknown.length > 0) {
    process.stderr.write(`Unknown argument(s): ${unknown.join(' ')}.\n${USAGE}\n`);
    return 2;
  }
  const entry = resolve(app, 'dist/servers.js');
  let built: ServerDefinition | readonly ServerDefinition[];
  try {
    built = (require(entry) as { buildServers: () => ServerDefinition | readonly ServerDefinition[] }).buildServers();
  } catch (error) {
    process.stderr.write(`Could not load ${entry}: ${(error as Error).message}\nBuild the app first (nx run <app>:build); its src/servers.ts must export buildServers().\n`);
    return 1;
  }
  const servers = Array.isArray(built) ? built : [built as ServerDefinition];
  const named = option('server');
  const server = named ? servers.find((candidate) => candidate.name === named) : servers.length === 1 ? servers[0] : undefined;
  if (!server) {
    process.stderr.write(`${named ? `No server '${named}' in ${app}` : `${app} has ${servers.length} servers`}: choose one with --server= (${servers.map((s) => s.name).join(', ')}).\n`);
    return 2;
  }
  const tools = [...server.catalog.tools.values()].map(declaredTool);
  const text = apiModule(tools, `server '${server.name}' ${server.version}`);
  const out = option('out');
  if (!out) {
    process.stdout.write(text);
    return 0;
  }
  mkdirSync(dirname(resolve(out)), { recursive: true });
  writeFileSync(resolve(out), text);
  process.stderr.write(`Wrote ${out}: ${tools.length} tools of server '${server.name}'.\n`);
  return 0;
}

process.exitCode = main(process.argv.slice(2));
