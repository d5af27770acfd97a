/** How a generated toolset reaches its API. */
export interface ApiSettings {
  /** The API's base URL; paths are appended to its path, and no request leaves its origin. */
  baseUrl: string;
  /** How long one upstream exchange may take, redirects and the whole body included (default 30 s). */
  timeoutMs?: number;
  /** The largest success body read, in bytes (default 8 MiB); a larger one is a ToolError `upstream_too_large`. */
  maxResponseBytes?: number;
  /** The MCP-side credential header and how its value goes upstream. */
  credential?: UpstreamCredential;
  /**
   * More credentials the API takes beside `credential`, each from its own MCP-side header (a boards
   * API's `key` and `token` query parameters): a required one must be sent, an optional one goes
   * upstream when the caller gives it.
   */
  moreCredentials?: UpstreamCredential[];
  /** The toolset's name, so messages can name its variables (`<NAME>_MAX_RESPONSE_BYTES`). */
  name?: string;
  /** Why the document gives no usable base URL (`baseUrl` is then empty and `<NAME>_BASE_URL` must be set). */
  unusableServer?: string;
  /**
   * Headers sent upstream on every request, whatever the caller passes (`openapi.config.json`'s
   * `headers`: an API version the document's operations expect, say). The credential still wins.
   */
  headers?: Record<string, string>;
}

export interface UpstreamCredential {
  /** The header the MCP client sends (declared in the toolset's `credentialHeaders`). */
  header: string;
  /**
   * `header`: sent under `name`; `query`: sent as the query parameter `name`; `bearer`: sent as
   * `Authorization: Bearer <value>` (also OAuth 2 and OpenID Connect tokens); `basic`: sent as
   * `Authorization: Basic`, the value being `user:password` (a value without a colon is the user, as
   * Stripe's secret keys are).
   */
  sendAs: { in: 'header'; name: string } | { in: 'query'; name: string } | { in: 'bearer' } | { in: 'basic' };
  /** Sent only when the caller gives it (the document lists it as an alternative); a required one missing fails the call. */
  optional?: boolean;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

/** `petstore` → `PETSTORE`, `my-api` → `MY_API`: the prefix of a toolset's variables. */
export function variablePrefix(toolsetName: string): string {
  return toolsetName.toUpperCase().replace(/-/g, '_');
}

/** `petstore` → `PETSTORE_BASE_URL`, `my-api` → `MY_API_BASE_URL`. */
export function baseUrlVariable(toolsetName: string): string {
  return `${variablePrefix(toolsetName)}_BASE_URL`;
}

/**
 * The settings a generated toolset starts from: the base URL from `<NAME>_BASE_URL` when set,
 * else the document's first server; the timeout from `<NAME>_TIMEOUT_MS` and the body cap from
 * `<NAME>_MAX_RESPONSE_BYTES` when set.
 */
export function settingsFromEnvironment(toolsetName: string, defaults: ApiSettings, env: NodeJS.ProcessEnv = process.env): ApiSettings {
  const variable = baseUrlVariable(toolsetName);
  const baseUrl = env[variable]?.trim() || defaults.baseUrl;
  if (!baseUrl) {
    throw new Error(`${variable} is not set, and the API's document gives no usable server URL (${defaults.unusableServer ?? 'it has none'}): set ${variable} to the API's absolute URL, such as https://api.example.com/v1.`);
  }
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new Error(`${variable} must be an absolute URL such as https://api.example.com/v1, got ${JSON.stringify(baseUrl)}.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`${variable} must be an http or https URL, got ${JSON.stringify(baseUrl)}.`);
  const prefix = variablePrefix(toolsetName);
  const timeoutMs = positiveInteger(env, `${prefix}_TIMEOUT_MS`, 'milliseconds');
  const maxResponseBytes = positiveInteger(env, `${prefix}_MAX_RESPONSE_BYTES`, 'bytes');
  return {
    ...defaults,
    name: toolsetName,
    baseUrl,
    ...(timeoutMs !== undefined && { timeoutMs }),
    ...(maxResponseBytes !== undefined && { maxResponseBytes }),
  };
}

function positiveInteger(env: NodeJS.ProcessEnv, variable: string, unit: string): number | undefined {
  const value = env[variable];
  if (value === undefined) return undefined;
  const number = Number(value.trim());
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(number) || number === 0) {
    throw new Error(`${variable} must be a positive integer of ${unit}, got ${JSON.stringify(value)}.`);
  }
  return number;
}
