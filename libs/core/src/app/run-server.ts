import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { credentialEnvironmentVariable } from '../context/credential-env';
import type { ConnectionHandle, ServerDefinition } from '../server/build-server';
import { credentialPlaceholder } from '../catalog-page/client-config';
import { serveHttp, type HttpServerHandle, type MountInfo } from '../transport/http/http-server';
import { serveStdio, type StdioConnectionHandle } from '../transport/stdio/stdio-server';
import { formatCatalogSizes, listBudgetProblem } from '../selection/list-sizes';
import type { Selection, SelectionText } from '../selection/selection';
import { AUTH_VARIABLES, LIMIT_VARIABLES, servingOptionsFromEnvironment } from './serving-environment';
import { appTasks, shareInterceptorState, type AppTasks } from './shared-state';
import { DEFAULT_SERVING_LIMITS } from '../transport/serving-limits';

export interface StdioCommand {
  command: string;
  args: string[];
}

export interface RunServerOptions {
  argv?: readonly string[];
  env?: NodeJS.ProcessEnv;
  /** How a client starts each server over stdio, for the printed configuration (by server name). */
  stdioCommands?: Readonly<Record<string, StdioCommand>>;
  /** Where the banner goes (default stdout; never used with --stdio). */
  print?: (text: string) => void;
  /**
   * Exit the process after SIGINT/SIGTERM (or, over stdio, its client closing stdin) have drained
   * in-flight calls (default true).
   */
  exitOnSignal?: boolean;
}

const USAGE = `Usage: main.js [--stdio [--server=name] [--toolsets=a,b] [--readonly] [--discovery | --code]] [--worker]

  (default)      streamable HTTP on http://$HOST:$PORT/mcp (HOST=127.0.0.1, PORT=8000);
                 each request selects with ?toolsets=a,b&readonly=1&mode=discovery
                 or the X-MCP-Toolsets, X-MCP-Readonly and X-MCP-Mode headers
  --stdio        MCP over stdin/stdout; credentials from environment variables
  --server=name  which server to serve over stdio, when the app has several
  --toolsets=a,b only these toolsets' tools (also MCP_TOOLSETS)
  --readonly     only tools marked readOnlyHint (also MCP_READONLY=1)
  --discovery    list search_tools, browse_tools, describe_tools and call_tool instead (also MCP_MODE=discovery)
  --code         list code mode's search, describe and execute instead, when the server serves it (also MCP_MODE=code)
  --worker       serve nothing: only run the tasks of task tools, taken from the queue on REDIS_URL

Environment: HOST, PORT, ALLOWED_HOSTS and CORS_ORIGINS (comma-separated), and the limits
${LIMIT_VARIABLES.map(([, variable]) => variable).join(', ')}
(see docs/serving-and-deploying.md for their defaults).
OAuth access tokens on HTTP: ${AUTH_VARIABLES.join(', ')} (see docs/authorization.md).
Prometheus metrics: METRICS=on serves /metrics, on METRICS_PORT if set, asking for METRICS_TOKEN if set (see docs/observability.md).
Tasks: TASKS_MAX, TASKS_MAX_PER_CALLER and TASKS_INPUT_TIMEOUT_MS bound them; REDIS_URL shares them between replicas (TASKS_WORKER=off, TASKS_CONCURRENCY, TASKS_LOCK_MS, TASKS_DRAIN_MS; see docs/long-running-tools.md).`;

/**
 * The entry point of a server app: serves over HTTP (or stdio with `--stdio`), prints where and how
 * to connect, and on SIGINT/SIGTERM lets in-flight calls finish before exiting 0. Over stdio it shuts
 * down the same way when its client closes stdin (the stdio binding's shutdown): what the app holds
 * open (an upstream MCP server's child process, a task store's connection) never keeps it running.
 */
export async function runServer(servers: ServerDefinition | readonly ServerDefinition[], options: RunServerOptions = {}): Promise<ConnectionHandle> {
  const argv = options.argv ?? process.argv.slice(2);
  const env = options.env ?? process.env;
  const list: readonly ServerDefinition[] = Array.isArray(servers) ? servers : [servers as ServerDefinition];
  const logger = list[0].logger;
  const print = options.print ?? ((text: string) => process.stdout.write(text + '\n'));

  if (argv.includes('--help') || argv.includes('-h')) {
    print(USAGE);
    return { close: async () => undefined };
  }
  const unknown = argv.filter((arg) => arg !== '--stdio' && arg !== '--worker' && !isSelectionFlag(arg));
  if (unknown.length > 0) throw new Error(`Unknown argument(s): ${unknown.join(' ')}.\n${USAGE}`);
  const selecting = argv.filter(isSelectionFlag);
  if (selecting.length > 0 && !argv.includes('--stdio')) {
    throw new Error(`${selecting.join(' ')} applies to --stdio. Over HTTP each request selects: ?toolsets=a,b&readonly=1&mode=discovery on the MCP URL.`);
  }
  checkToolsetSettings(list, env);
  warnOverBudget(list);
  const tasks = appTasks(list, env);
  const closeShared = shareInterceptorState(env);

  const programGraceMs = Math.floor(drainTimeoutOf(env) * 0.8);
  // The signals are handled before the port opens: a SIGTERM that comes while the banner is still
  // being written (a balancer, a test or an orchestrator may act on the log's first line) drains
  // instead of killing the process with its connections, as Node's default action does.
  const serving = serve(servers, list, argv, env, tasks, print, options);
  let stopping = false;
  const stop = (why: { signal: string } | { reason: string }) => {
    if (stopping) return;
    stopping = true;
    logger.info('draining in-flight calls before exit', why);
    // Calls first (a task is created by one), then the tasks running here.
    // Code-mode programs may run on through most of the drain; those still running then are stopped and answered before connections close.
    const programs = Promise.all(list.map((server) => server.codeMode?.close(programGraceMs)));
    Promise.all([serving.then((handle) => handle.close()), programs])
      .then(() => tasks?.close())
      .then(() => closeShared?.())
      .then(
      () => options.exitOnSignal !== false && process.exit(0),
      () => options.exitOnSignal !== false && process.exit(1),
    );
  };
  const onSignal = (signal: string) => stop({ signal });
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const handle = await serving;
    if (isStdioHandle(handle)) void handle.inputEnded.then(() => stop({ reason: 'the client closed stdin' }));
    return handle;
  } catch (error) {
    // Not serving after all (the port is taken, a setting is wrong): the signals are the process's again.
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
    throw error;
  }
}

/** Serves as the command line says: a worker only, over stdio, or over HTTP with the banner. */
async function serve(
  servers: ServerDefinition | readonly ServerDefinition[],
  list: readonly ServerDefinition[],
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  tasks: AppTasks | undefined,
  print: (text: string) => void,
  options: RunServerOptions,
): Promise<ConnectionHandle> {
  if (argv.includes('--worker')) return workerOnly(list, env, tasks, print);
  if (argv.includes('--stdio')) return serveOverStdio(list, argv, env);
  const http = await serveHttp(Array.isArray(servers) ? list : list[0], { ...servingOptionsFromEnvironment(env), logger: list[0].logger });
  list[0].logger.info('serving over streamable HTTP', { origin: http.origin, endpoints: http.mounts.map((m) => m.url) });
  // Before the banner, which ends with the client configuration (JSON a reader copies whole).
  if (tasks) print(`Tasks of task tools live in ${tasks.where}.`);
  print(banner(http, list, options.stdioCommands ?? defaultStdioCommands(list)));
  return http;
}

/** `--worker`: no listener, only the queue's tasks; it needs the queue, so REDIS_URL. */
function workerOnly(servers: readonly ServerDefinition[], env: NodeJS.ProcessEnv, tasks: AppTasks | undefined, print: (text: string) => void): ConnectionHandle {
  if (!tasks) throw new Error(`Not starting: --worker runs tasks, and no tool of ${servers.map((s) => s.name).join(', ')} is a task tool (@Tool({ task })).`);
  if (!env['REDIS_URL']) throw new Error('Not starting: --worker takes tasks from the queue on REDIS_URL, which is not set. Set REDIS_URL=redis://host:port (the one the serving replicas use).');
  servers[0].logger.info('running tasks only', { servers: servers.filter((s) => s.tasks).map((s) => s.name), tasks: tasks.where });
  print(`Running the tasks of ${servers.filter((s) => s.tasks).map((s) => s.name).join(', ')} from ${tasks.where} (worker only: nothing is served).`);
  return { close: async () => undefined };
}

/** The one server `--stdio` names, with the selection its flags and environment make. */
function serveOverStdio(servers: readonly ServerDefinition[], argv: readonly string[], env: NodeJS.ProcessEnv): StdioConnectionHandle {
  const server = stdioServer(servers, argv);
  const { maxBodyBytes, maxArgumentItems, maxArgumentStringLength, maxArgumentDepth, fastPath } = servingOptionsFromEnvironment(env);
  const selection = stdioSelection(server, argv, env);
  const handle = serveStdio(server, { environment: env, selection, maxBodyBytes, maxArgumentItems, maxArgumentStringLength, maxArgumentDepth, ...(fastPath !== undefined && { fastPath }) });
  server.logger.info('serving over stdio', { server: server.name, mode: selection.mode, tools: [...server.views.view(selection).tools.keys()] });
  return handle;
}

function isStdioHandle(handle: ConnectionHandle): handle is StdioConnectionHandle {
  return (handle as Partial<StdioConnectionHandle>).inputEnded !== undefined;
}

/** A server whose whole tools/list is over its `listBudgetTokens` still starts, with a warning that says how to fit it. */
function warnOverBudget(servers: readonly ServerDefinition[]): void {
  for (const server of servers) {
    const over = server.listBudgetTokens && listBudgetProblem(server.name, server.views.sizes, server.listBudgetTokens);
    if (over) server.logger.warn('tools/list is over its budget', { detail: over });
  }
}

/** How long the HTTP drain waits for calls in flight: DRAIN_TIMEOUT_MS (checked where HTTP serving reads it), else the default. */
function drainTimeoutOf(env: NodeJS.ProcessEnv): number {
  const value = Number(env['DRAIN_TIMEOUT_MS']);
  return Number.isSafeInteger(value) && value > 0 ? value : DEFAULT_SERVING_LIMITS.drainTimeoutMs;
}

function isSelectionFlag(arg: string): boolean {
  return arg.startsWith('--toolsets=') || arg === '--readonly' || arg === '--discovery' || arg === '--code' || arg.startsWith('--server=');
}

/** The one server `--stdio` serves: the app's only one, or the one `--server=` names. */
function stdioServer(servers: readonly ServerDefinition[], argv: readonly string[]): ServerDefinition {
  const named = argv.find((arg) => arg.startsWith('--server='))?.slice('--server='.length);
  const names = servers.map((s) => s.name).join(', ');
  if (named === undefined) {
    if (servers.length === 1) return servers[0];
    throw new Error(`--stdio serves one server; this app serves ${names}. Choose one with --server=<name>.`);
  }
  const server = servers.find((s) => s.name === named);
  if (!server) throw new Error(`--server=${named}: no such server in this app. Servers: ${names}.`);
  return server;
}

/** What a stdio connection sees: the command line and the environment both narrow it. Throws `SelectionError`. */
function stdioSelection(server: ServerDefinition, argv: readonly string[], env: NodeJS.ProcessEnv): Selection {
  const toolsets = argv.filter((arg) => arg.startsWith('--toolsets=')).map((arg) => arg.slice('--toolsets='.length));
  const fromArgv: SelectionText = {
    ...(toolsets.length > 0 && { toolsets: toolsets.join(',') }),
    ...(argv.includes('--readonly') && { readonly: '1' }),
    ...(argv.includes('--discovery') && { mode: 'discovery' }),
    ...(argv.includes('--code') && { mode: 'code' }),
  };
  const fromEnv: SelectionText = { toolsets: env['MCP_TOOLSETS'], readonly: env['MCP_READONLY'], mode: env['MCP_MODE'] };
  try {
    return server.views.reader.read(fromArgv, fromEnv);
  } catch (error) {
    throw new Error(`Not starting: ${(error as Error).message} (from --toolsets, --readonly, --discovery, --code, MCP_TOOLSETS, MCP_READONLY or MCP_MODE)`);
  }
}

/** Every toolset's own settings check (`@Toolset({ checkSettings })`), all of them, before anything listens. */
function checkToolsetSettings(servers: readonly ServerDefinition[], env: NodeJS.ProcessEnv): void {
  const problems: string[] = [];
  for (const server of servers) {
    for (const toolset of server.catalog.toolsets) {
      try {
        toolset.checkSettings?.(env);
      } catch (error) {
        problems.push(`- toolset '${toolset.name}': ${(error as Error).message}`);
      }
    }
  }
  if (problems.length > 0) throw new Error(`Not starting: a toolset's settings are not usable.\n${[...new Set(problems)].join('\n')}`);
}

function defaultStdioCommands(servers: readonly ServerDefinition[]): Record<string, StdioCommand> {
  const script = process.argv[1];
  if (servers.length !== 1 || !script) return {};
  return { [servers[0].name]: { command: 'node', args: [resolve(script), '--stdio'] } };
}

/** The URLs, plus an `mcpServers` block a user can paste into an MCP client's configuration. */
export function banner(http: Pick<HttpServerHandle, 'origin' | 'mounts' | 'metricsUrl'>, servers: readonly ServerDefinition[], stdio: Readonly<Record<string, StdioCommand>>): string {
  const config: Record<string, unknown> = {};
  const unbuilt: string[] = [];
  for (const mount of http.mounts) {
    config[mount.name] = {
      type: 'http',
      url: mount.url,
      ...(mount.credentialHeaders.length > 0 && {
        headers: Object.fromEntries(mount.credentialHeaders.map((h) => [h, credentialPlaceholder(h)])),
      }),
    };
  }
  for (const server of servers) {
    const command = stdio[server.name];
    if (!command) continue;
    // An entry whose script is not built would fail with MODULE_NOT_FOUND once pasted.
    const script = command.args.find((arg) => /\.[cm]?js$/.test(arg));
    if (command.command === 'node' && script && isAbsolute(script) && !existsSync(script)) {
      unbuilt.push(`  (${server.name}-stdio left out: ${script} is not built yet)`);
      continue;
    }
    config[`${server.name}-stdio`] = {
      command: command.command,
      args: command.args,
      ...(server.credentialHeaders.length > 0 && {
        env: Object.fromEntries(server.credentialHeaders.map((h) => [credentialEnvironmentVariable(h), credentialPlaceholder(h)])),
      }),
    };
  }
  const nameWidth = Math.max(...http.mounts.map((m) => m.name.length));
  const urlWidth = Math.max(...http.mounts.map((m) => m.url.length));
  const lines = http.mounts.flatMap((mount: MountInfo) => {
    const needs = [
      mount.credentialHeaders.length ? `  (send header: ${mount.credentialHeaders.join(', ')})` : '',
      mount.oauth ? `  (OAuth access token from ${mount.oauth.issuer}; metadata: ${mount.oauth.metadata})` : '',
    ].join('');
    const tools = mount.tools.length <= 12 ? mount.tools.join(', ') : `${mount.tools.slice(0, 8).join(', ')} and ${mount.tools.length - 8} more`;
    const sizes = formatCatalogSizes({ whole: { ...mount.list, tools: mount.tools.length }, groups: mount.toolsets, discovery: mount.discoveryList, ...(mount.codeList && { code: mount.codeList }) }, 5).map((line) => `    ${line}`);
    return [`  ${mount.name.padEnd(nameWidth)}  ${mount.url.padEnd(urlWidth)}  tools: ${tools}${needs}`, ...sizes];
  });
  return [
    `MCP over streamable HTTP on ${http.origin}`,
    ...lines,
    `  health: ${http.origin}/health   catalog: ${http.origin}/ (a page in a browser, JSON otherwise)${http.metricsUrl ? `   metrics: ${http.metricsUrl}` : ''}`,
    `  select per request: ?toolsets=<group>,<group>  ?readonly=1  ?mode=discovery${servers.some((server) => server.codeMode) ? '  ?mode=code' : ''} (or X-MCP-Toolsets, X-MCP-Readonly, X-MCP-Mode)`,
    ...(http.mounts[0] ? [`  inspect: npx @modelcontextprotocol/inspector (Node 22.19+; on Node 20: npx -y -p node@22 -p @modelcontextprotocol/inspector mcp-inspector), then "Streamable HTTP" and ${http.mounts[0].url}`] : []),
    '',
    'Client configuration (paste into your MCP client under "mcpServers"):',
    JSON.stringify(config, null, 2),
    ...unbuilt,
  ].join('\n');
}

/**
 * An app's whole `main`: builds its servers (the startup gate runs here) and serves them. A
 * contract violation or a bad setting is printed to stderr, without a stack, and exits 1.
 */
export function startApp(build: () => ServerDefinition | readonly ServerDefinition[], options: RunServerOptions = {}): void {
  Promise.resolve()
    .then(() => runServer(build(), options))
    .catch((error: NodeJS.ErrnoException) => {
      const hint = error.code === 'EADDRINUSE' ? ' Another process is using that port: set PORT to a free one (e.g. PORT=8001).' : '';
      process.stderr.write(`${error.message}${hint}\n`);
      process.exit(1);
    });
}
