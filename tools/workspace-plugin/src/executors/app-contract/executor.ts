import type { ExecutorContext } from '@nx/devkit';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import type * as Core from '@toolsets/core';
import { reportGate } from '../../utils/report-gate';
import { snapshotEntries } from '../../contract/catalog-entries';
import { plural } from '../../contract/package-version';
import { compareWithSnapshot } from '../contract/executor';
import type { AppContractExecutorSchema } from './schema';
import { flushed } from '../../utils/flushed-output';

type ServerList = Core.ServerDefinition | readonly Core.ServerDefinition[];

/**
 * The contract target of an app: builds its server definitions (`buildServers()` from its built
 * `servers.js`) without listening, so what only fails at startup, such as two toolsets with a tool
 * of the same name in one server, fails CI instead.
 */
export default async function appContractExecutor(options: AppContractExecutorSchema, context: ExecutorContext): Promise<{ success: boolean }> {
  // Everything printed reaches the user before Nx ends the executor's process.
  return flushed(await run(options, context));
}

async function run(options: AppContractExecutorSchema, context: ExecutorContext): Promise<{ success: boolean }> {
  const projectName = context.projectName ?? 'app';
  const root = context.projectsConfigurations?.projects[projectName]?.root ?? '.';
  const entry = resolve(context.root, options.entry ?? join(root, 'dist/servers.js'));
  if (!existsSync(entry)) {
    console.error(
      `${entry} does not exist. An app keeps its server definitions in src/servers.ts (export function buildServers()) ` +
        `and starts them from src/main.ts (startApp(buildServers)); build it first (nx run ${projectName}:build).`,
    );
    return { success: false };
  }
  // Resolve from the entry itself: the core it loads is the one whose metadata the gate must read.
  const requireFromEntry = createRequire(entry);
  const core: typeof Core = requireFromEntry('@toolsets/core');
  const { buildServers } = requireFromEntry(entry) as { buildServers?: () => ServerList };
  if (typeof buildServers !== 'function') {
    console.error(`${entry} does not export buildServers(); export the function that builds the app's servers from src/servers.ts.`);
    return { success: false };
  }
  let servers: readonly Core.ServerDefinition[] = [];
  const gate = reportGate(core, () => {
    const built = buildServers();
    servers = Array.isArray(built) ? built : [built as Core.ServerDefinition];
    return servers.map((server) => `server ${server.name}\n${core.describeCatalog(server.catalog, { verbose: Boolean(process.env['TOOLSETS_DEBUG']) }).replace(/^/gm, '  ')}`).join('\n');
  });
  if (!gate.success) return gate;
  const budgets = checkListBudgets(core, servers);
  const curated = servers.map((server) => recordCurations(server, projectName, context.root, root, options.update === true));
  return { success: budgets.success && curated.every((check) => check.success) };
}

/**
 * The tools a server serves through `curate()` are the app's own contract (the library's snapshot
 * records the toolset as written): each such server's are compared with `contract.<server>.json`
 * in the app, classified by the same rules, and recorded with `--update`.
 */
function recordCurations(server: Core.ServerDefinition, projectName: string, workspaceRoot: string, projectRoot: string, update: boolean): { success: boolean } {
  const curated = new Set([...server.catalog.tools.values()].filter((tool) => tool.toolset.curated).map((tool) => tool.name));
  if (curated.size === 0) return { success: true };
  const tools = snapshotEntries(server.catalog).filter((entry) => curated.has(entry.name));
  const file = `contract.${server.name.replace(/[^A-Za-z0-9._-]+/g, '-')}.json`;
  console.log(`server ${server.name} serves ${plural(curated.size, 'curated tool')}: comparing them with ${file}`);
  return compareWithSnapshot({ projectName, workspaceRoot, projectRoot, tools, update, file, target: 'contract' });
}

/** Prints each server's tools/list size, whole, per group and in discovery mode, and fails a server over its `listBudgetTokens`. */
function checkListBudgets(core: typeof Core, servers: readonly Core.ServerDefinition[]): { success: boolean } {
  let success = true;
  for (const server of servers) {
    const sizes = server.views.sizes;
    console.log(`server ${server.name} ${core.formatCatalogSizes(sizes).join('\n')}`);
    const over = server.listBudgetTokens === undefined ? undefined : core.listBudgetProblem(server.name, sizes, server.listBudgetTokens);
    if (over) {
      console.error(over);
      success = false;
    } else if (server.listBudgetTokens !== undefined) {
      console.log(`  within its listBudgetTokens of ${server.listBudgetTokens.toLocaleString('en')}`);
    }
  }
  return { success };
}
