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
   * Each served upstream tool's fingerprint at generation (`toolFingerprint`): the pinned contract.
   * A tool the live upstream removed or changed is refused with a ToolError until the library is regenerated.
   */
  pins?: Record<string, string>;
}

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
  const timeoutMs = positiveInteger(env, `${prefix}_TIMEOUT_MS`, 'milliseconds');
  const maxResultBytes = positiveInteger(env, `${prefix}_MAX_RESULT_BYTES`, 'bytes');
  const pollMs = positiveInteger(env, `${prefix}_MCP_POLL_MS`, 'milliseconds');
  return {
    ...defaults,
    name: toolsetName,
    transport,
    secrets,
    ...(timeoutMs !== undefined && { timeoutMs }),
    ...(maxResultBytes !== undefined && { maxResultBytes }),
    ...(pollMs !== undefined && { pollMs }),
  };
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

function positiveInteger(env: NodeJS.ProcessEnv, variable: string, unit: string): number | undefined {
  const raw = env[variable]?.trim();
  if (!raw) return undefined;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value <= 0) throw new Error(`${variable} must be a positive whole number of ${unit}, got ${JSON.stringify(raw)}.`);
  return value;
}
