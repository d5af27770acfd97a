/** How a generated toolset reaches its upstream MCP server: over streamable HTTP, or as a child process over stdio. */
export type UpstreamTransportSettings =
  | {
      kind: 'http';
      /** The server's streamable HTTP endpoint. */
      url: string;
    }
  | {
      kind: 'stdio';
      /** The executable started as the upstream (one child process per app process). */
      command: string;
      args?: string[];
      /** Where the child runs; the app's working directory when left out. */
      cwd?: string;
    };

/** What a generated toolset's upstream is and how its calls are bounded. */
export interface UpstreamSettings {
  /** The toolset's name: messages and variables are named after it (`<NAME>_MCP_URL`). */
  name: string;
  transport: UpstreamTransportSettings;
  /**
   * Headers sent on every request to an HTTP upstream (or variables set for a stdio child), each
   * from an environment variable of the app: `{ authorization: 'EVERYTHING_TOKEN' }`. The upstream's
   * own credential, never the MCP caller's: the caller's `Authorization` is never forwarded.
   */
  secretsFrom?: Record<string, string>;
  /** How long one call may take, the connection included (default 30 s). */
  timeoutMs?: number;
  /** The largest answer passed on, in bytes of JSON (default 8 MiB); a larger one is a ToolError `upstream_too_large`. */
  maxResultBytes?: number;
  /** How often to list the upstream's tools again to check them against the pinned contract, for an upstream that sends no `list_changed` (off by default). */
  pollMs?: number;
  /**
   * Credentials each caller brings (per caller, not the app's): the header the MCP client sends
   * (declared in the toolset's `credentialHeaders`, so core reads, requires and redacts it) and the
   * upstream header its value goes in, as a bearer token or as it is. Never the caller's MCP
   * `Authorization`. HTTP upstreams only: each distinct credential gets a connection of its own.
   */
  callerCredentials?: CallerCredential[];
  /**
   * Who this app is to an HTTP upstream that checks OAuth tokens, beyond fixed secrets: each caller
   * by a token exchanged from theirs (`exchange`, RFC 8693), or the app as a service account
   * (`client-credentials`). Read from `<NAME>_MCP_IDENTITY` and the variables beside it.
   */
  identity?: UpstreamIdentity;
  /**
   * Each served upstream tool's fingerprint at generation (`toolFingerprint`): the pinned contract.
   * A tool the live upstream removed or changed is refused with a ToolError until the library is regenerated.
   */
  pins?: Record<string, string>;
  /**
   * The upstream's resources the library serves (their URIs, and its templates'), which a caller
   * may subscribe to: the app then subscribes to them upstream and passes each update on.
   */
  watchable?: { uris?: readonly string[]; uriTemplates?: readonly string[] };
  /**
   * The library serves tools the upstream runs as tasks (2025-11-25 `execution.taskSupport`): the
   * connection then tells a 2025-era upstream it can answer elicitation and sampling, so that what
   * a task asks (tied to it by `related-task`) reaches the caller of the task that asked.
   */
  tasks?: boolean;
  /**
   * A stdio upstream of the 2025 era whose tools ask questions mid-call (elicitation, sampling):
   * its calls are made one at a time, so that what it asks belongs to the one call running and
   * reaches that call's caller. Off by default, where such a question is refused (the child is
   * shared by every caller, and a 2025-era request over stdio says nothing of whose it is); every
   * call then waits its turn, within its own deadline. `<NAME>_MCP_ONE_CALL_AT_A_TIME=true`.
   */
  oneCallAtATime?: boolean;
}

/**
 * `exchange`: each call carries a token the app got by exchanging its caller's verified token at
 * the issuer (`RequestContext.exchangeToken`, RFC 8693) for one meant for the upstream (`resource`
 * its URL, or `audience` its name at the issuer); one connection per caller's token.
 * `client-credentials`: the app's own token from the upstream's authorization server (the SDK's
 * `ClientCredentialsProvider`: found from the upstream's 401, fetched, kept and renewed), the same
 * for every caller. The caller's own MCP token is never sent either way.
 */
export type UpstreamIdentity =
  | { kind: 'exchange'; audience?: string; scope?: string }
  | { kind: 'client-credentials'; clientId: string; clientSecret: string; issuer: string; scope?: string };

export interface CallerCredential {
  /** The header the MCP client sends, lower case (`x-weather-key`). */
  header: string;
  /** The header it goes upstream in (`authorization`). */
  upstreamHeader: string;
  /** Sent as `Bearer <value>`. */
  bearer?: boolean;
}

/** What a call got from the environment: the settings with each secret's value, never written anywhere. */
export interface ResolvedUpstreamSettings extends UpstreamSettings {
  secrets: Record<string, string>;
}

/** What no log line or answer shows: the secrets sent upstream, and the app's own OAuth client secret (never sent as a header). */
export function redactionsOf(settings: ResolvedUpstreamSettings): Record<string, string> {
  const identity = settings.identity;
  return identity?.kind === 'client-credentials' ? { ...settings.secrets, 'client-secret': identity.clientSecret } : settings.secrets;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_RESULT_BYTES = 8 * 1024 * 1024;

/** `everything` → `EVERYTHING`, `my-server` → `MY_SERVER`: the prefix of a toolset's variables. */
export function variablePrefix(toolsetName: string): string {
  return toolsetName.toUpperCase().replace(/-/g, '_');
}

/**
 * The settings a generated toolset runs with: the upstream as generated, unless `<NAME>_MCP_URL`
 * points an HTTP upstream elsewhere (a staging server, a replica) or `<NAME>_MCP_COMMAND` starts a
 * stdio one another way (the server installed elsewhere in an image); `<NAME>_TIMEOUT_MS`,
 * `<NAME>_MAX_RESULT_BYTES` and `<NAME>_MCP_POLL_MS` when set; each secret's value from its variable. Throws what to set
 * when something is missing or unusable, so an app refuses to start rather than failing every call.
 */
export function settingsFromEnvironment(toolsetName: string, defaults: UpstreamSettings, env: NodeJS.ProcessEnv = process.env): ResolvedUpstreamSettings {
  const prefix = variablePrefix(toolsetName);
  const urlVariable = `${prefix}_MCP_URL`;
  let transport = defaults.transport;
  const url = env[urlVariable]?.trim();
  if (url) {
    if (transport.kind !== 'http') throw new Error(`${urlVariable} is set, but ${toolsetName} was generated from a stdio server (${transport.command}): unset ${urlVariable}, or regenerate the library from the server's URL.`);
    transport = { kind: 'http', url };
  }
  const commandVariable = `${prefix}_MCP_COMMAND`;
  const command = env[commandVariable]?.trim();
  if (command) {
    if (transport.kind !== 'stdio') throw new Error(`${commandVariable} is set, but ${toolsetName} was generated from an HTTP server (${transport.url}): unset ${commandVariable}, or use ${urlVariable}.`);
    const [executable, ...args] = command.split(/\s+/);
    transport = { ...transport, command: executable!, args };
  }
  if (transport.kind === 'http') checkUrl(transport.url, url ? urlVariable : `${toolsetName}'s mcp.config.json "url"`);
  const secrets: Record<string, string> = {};
  for (const [header, variable] of Object.entries(defaults.secretsFrom ?? {})) {
    const value = env[variable];
    if (!value) throw new Error(`${variable} is not set: the upstream MCP server of ${toolsetName} takes its ${header} from it. Set ${variable}, or remove "${header}" from "secrets" in mcp.config.json.`);
    secrets[header] = value;
  }
  if (defaults.callerCredentials?.length && transport.kind !== 'http') {
    throw new Error(`${toolsetName} passes callers' credentials upstream, which needs an HTTP upstream (each caller's credential gets a connection of its own); a stdio child has one environment. Remove "credentials" from mcp.config.json, or serve the upstream over HTTP.`);
  }
  const identity = identityFromEnvironment(toolsetName, prefix, defaults, transport, env);
  const timeoutMs = positiveInteger(env, `${prefix}_TIMEOUT_MS`, 'milliseconds');
  const maxResultBytes = positiveInteger(env, `${prefix}_MAX_RESULT_BYTES`, 'bytes');
  const pollMs = positiveInteger(env, `${prefix}_MCP_POLL_MS`, 'milliseconds');
  const oneCallAtATime = booleanOf(env, `${prefix}_MCP_ONE_CALL_AT_A_TIME`) ?? defaults.oneCallAtATime;
  if (oneCallAtATime && transport.kind === 'http') {
    throw new Error(`${prefix}_MCP_ONE_CALL_AT_A_TIME is true, but ${toolsetName}'s upstream is reached over HTTP, where a question comes on the response stream of the request it belongs to and reaches its caller already: unset it.`);
  }
  return {
    ...defaults,
    name: toolsetName,
    transport,
    secrets,
    ...(identity && { identity }),
    ...(timeoutMs !== undefined && { timeoutMs }),
    ...(maxResultBytes !== undefined && { maxResultBytes }),
    ...(pollMs !== undefined && { pollMs }),
    ...(oneCallAtATime !== undefined && { oneCallAtATime }),
  };
}

/**
 * `<NAME>_MCP_IDENTITY`: `exchange` (with `_MCP_AUDIENCE`, `_MCP_SCOPE`) or `client-credentials`
 * (with `_MCP_CLIENT_ID`, `_MCP_CLIENT_SECRET`, `_MCP_ISSUER`, `_MCP_SCOPE`); unset, none. HTTP
 * upstreams only, and never beside another source of the upstream's `authorization`.
 */
function identityFromEnvironment(toolsetName: string, prefix: string, defaults: UpstreamSettings, transport: UpstreamTransportSettings, env: NodeJS.ProcessEnv): UpstreamIdentity | undefined {
  const variable = `${prefix}_MCP_IDENTITY`;
  const kind = env[variable]?.trim() || defaults.identity?.kind;
  if (!kind) return undefined;
  if (kind !== 'exchange' && kind !== 'client-credentials') throw new Error(`${variable} must be exchange (a token exchanged from each caller's, RFC 8693) or client-credentials (the app's own OAuth client), got ${JSON.stringify(kind)}.`);
  if (transport.kind !== 'http') throw new Error(`${variable} is ${kind}, but ${toolsetName}'s upstream runs over stdio, where there is no token to send: unset ${variable}, or serve the upstream over HTTP.`);
  const authorization = Object.keys(defaults.secretsFrom ?? {}).find((header) => header.toLowerCase() === 'authorization') ?? defaults.callerCredentials?.find((credential) => credential.upstreamHeader.toLowerCase() === 'authorization')?.header;
  if (authorization) throw new Error(`${variable} is ${kind}, but ${toolsetName} already sends the upstream an authorization (from ${JSON.stringify(authorization)} in mcp.config.json): keep one of the two.`);
  const scope = env[`${prefix}_MCP_SCOPE`]?.trim() || undefined;
  if (kind === 'exchange') {
    const audience = env[`${prefix}_MCP_AUDIENCE`]?.trim() || (defaults.identity?.kind === 'exchange' ? defaults.identity.audience : undefined);
    return { kind, ...(audience && { audience }), ...(scope && { scope }) };
  }
  const needed = (name: string) => {
    const value = env[`${prefix}_MCP_${name}`]?.trim();
    if (!value) throw new Error(`${prefix}_MCP_${name} is not set: ${variable} is client-credentials, which needs the app's client at the upstream's authorization server (${prefix}_MCP_CLIENT_ID, ${prefix}_MCP_CLIENT_SECRET and ${prefix}_MCP_ISSUER, its issuer identifier).`);
    return value;
  };
  const [clientId, clientSecret, issuer] = [needed('CLIENT_ID'), needed('CLIENT_SECRET'), needed('ISSUER')];
  checkUrl(issuer, `${prefix}_MCP_ISSUER`);
  return { kind, clientId, clientSecret, issuer, ...(scope && { scope }) };
}

function checkUrl(value: string, where: string): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${where} must be an absolute URL such as https://mcp.example.com/mcp, got ${JSON.stringify(value)}.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`${where} must be an http or https URL, got ${JSON.stringify(value)}.`);
}

function booleanOf(env: NodeJS.ProcessEnv, variable: string): boolean | undefined {
  const raw = env[variable]?.trim().toLowerCase();
  if (!raw) return undefined;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new Error(`${variable} must be true or false, got ${JSON.stringify(env[variable])}.`);
}

function positiveInteger(env: NodeJS.ProcessEnv, variable: string, unit: string): number | undefined {
  const raw = env[variable]?.trim();
  if (!raw) return undefined;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value <= 0) throw new Error(`${variable} must be a positive whole number of ${unit}, got ${JSON.stringify(raw)}.`);
  return value;
}
