import type { DependencyContainer } from 'tsyringe';
import type { TransportKind } from '../context/request-context';
import type { ClassType } from '../types/class-type';
import type { CuratedToolset } from '../metadata/toolset-curation';
import type { InterceptorClass } from '../metadata/tool-interceptor';
import type { TelemetryOptions } from '../telemetry/server-telemetry';
import type { CatalogMode, Selection } from '../selection/selection';
import type { CodeModeProvider } from '../selection/code-mode-provider';
import type { AuthOptions } from './request/auth-options';
import type { Logger } from './logging/logger';
import type { ArgumentLimits } from './checks/argument-limits';
import type { TaskStore } from './tasks/task-store';
import type { TaskQueue } from './tasks/task-queue';
import type { TaskLimits } from './tasks/task-limits';
import type { ServerCardOptions } from './server-card-options';

/** The cache scopes of 2026-07-28 results (SEP-2549). */
export type CacheScope = 'public' | 'private';

export interface BuildServerOptions {
  name: string;
  version: string;
  /**
   * Toolset classes (decorated with `@Toolset`) whose tools this server serves, each as written or
   * adapted to this app with `curate(Toolset, { prefix, hide, tools })`.
   */
  toolsets: readonly (ClassType | CuratedToolset)[];
  /** Where app-level services are registered; each call resolves in a child of it. */
  container?: DependencyContainer;
  /** Sent to clients as the server's `instructions`. */
  instructions?: string;
  logger?: Logger;
  /**
   * Log once per tool and key when a result carries a key its class does not declare (it is
   * dropped either way). Default: on unless `NODE_ENV=production`, and on with `TOOLSETS_DEBUG`.
   */
  warnDroppedKeys?: boolean;
  /**
   * How `tools/list` presents the tools when a request does not choose (`?mode=`): `tools` lists
   * every selected tool (the default); `discovery` lists three tools that search, describe and
   * call them, for catalogs too large to list.
   */
  mode?: CatalogMode;
  /**
   * Serves code mode (`?mode=code`, `X-MCP-Mode: code`, stdio's `--code`, or `mode: 'code'` here):
   * `codeMode()` from `@toolsets/code-mode`, which lists three tools that search the catalog,
   * describe it as TypeScript, and run a model's program against it in a sandbox. Without it, a
   * request for code mode is refused saying how to turn it on.
   */
  codeMode?: CodeModeProvider;
  /**
   * The most estimated tokens (bytes ÷ 4) this server's whole `tools/list` may take: the
   * `contract` target fails past it, naming the groups to split or select, or discovery mode.
   */
  listBudgetTokens?: number;
  /**
   * Token verification for this server's HTTP mount, overriding the app's (`AUTH_ISSUER`, …);
   * `false` keeps it public even when the app checks tokens. Over stdio nothing is checked.
   */
  auth?: AuthOptions | false;
  /**
   * Interceptor classes run around every tool call of this server, before each toolset's and
   * tool's own (`@UseInterceptors`): `[Timing, RateLimit({ capacity: 60, refillPerSecond: 1 })]`.
   */
  interceptors?: readonly InterceptorClass[];
  /**
   * OpenTelemetry spans and metrics for every request, through `@opentelemetry/api` (nothing is
   * recorded until the app registers an SDK). `false` turns them off; `{ recordArguments: true }`
   * also records tool arguments (and `recordResults` results), which are never recorded otherwise.
   */
  telemetry?: boolean | TelemetryOptions;
  /**
   * Where the tasks of `@Tool({ task })` tools live: in the process by default; a shared store
   * (`RedisTaskStore`, which `REDIS_URL` sets up in an app) lets every replica answer for them.
   */
  taskStore?: TaskStore;
  /**
   * Which process runs a task: the one that created it by default; a queue (`BullTaskQueue`, which
   * `REDIS_URL` sets up in an app) hands it to a worker on any replica.
   */
  taskQueue?: TaskQueue;
  /**
   * Bounds on the tasks: unfinished tasks in all (`maxActive`, default 1,000) and per caller
   * (`maxActivePerCaller`, default 32), and how long one may wait for input (`inputTimeoutMs`,
   * default ten minutes). An app reads TASKS_MAX, TASKS_MAX_PER_CALLER and TASKS_INPUT_TIMEOUT_MS.
   */
  taskLimits?: Partial<TaskLimits>;
  /**
   * The key (32 bytes or more) that seals the `requestState` of 2026-07-28 multi round-trips (a
   * tool's questions to a stateless client), so a client can neither alter the answers it carries
   * nor replay them on another call. Default: `MCP_REQUEST_STATE_KEY`, else a random key of this
   * process (then every round of a call must reach the same process: replicas share a key).
   */
  requestStateKey?: string;
  /**
   * What this server's MCP Server Card says of it (SEP-2127, served at `<endpoint>/server-card`):
   * its registry name, title, description, links. `false` serves no card. See `ServerCardOptions`.
   */
  card?: ServerCardOptions | false;
  /**
   * How long, in milliseconds, a 2026-07-28 client may cache this server's lists (`tools/list`,
   * `prompts/list`, `resources/list`, `resources/templates/list`) and `server/discover`: their
   * `ttlMs`. Default `LIST_TTL_MS`, else 0 (the client revalidates, with the list's ETag over
   * HTTP). The catalog changes only when the server is redeployed, so a deployment that rolls
   * slowly can give minutes. Their `cacheScope` is `public` on an HTTP mount that checks no token
   * (every caller with the same selection gets the same bytes) and `private` elsewhere.
   */
  listTtlMs?: number;
}

/** How a long-lived connection (stdio, in-memory) reaches the server, for its RequestContext. */
export interface ConnectionOptions {
  transport?: TransportKind;
  /** Headers every call on this connection carries (in-memory tests, proxies). */
  headers?: Readonly<Record<string, string>>;
  /** Where stdio reads credentials: `x-demo-token` from `X_DEMO_TOKEN`. */
  environment?: Readonly<Record<string, string | undefined>>;
  /** Bounds on each call's arguments (default `DEFAULT_ARGUMENT_LIMITS`). */
  argumentLimits?: Readonly<ArgumentLimits>;
  /**
   * The connection outlives a request (stdio, in memory, a 2025-era HTTP session), so clients may
   * subscribe to resources and get `notifications/resources/updated`.
   */
  subscriptions?: boolean;
  /** The tools this connection sees and how they are listed (stdio's `--toolsets=`, `--readonly`, `--discovery`). */
  selection?: Selection;
  /**
   * Extensions the connection's mount adds to those the server speaks, advertised in `initialize`
   * and `server/discover` (an HTTP mount that checks tokens adds OAuth client credentials).
   */
  extensions?: Readonly<Record<string, object>>;
  /** Whether the lists this connection gets may sit in shared caches (`public`: an HTTP mount that checks no token). Default `private`. */
  cacheScope?: CacheScope;
}
