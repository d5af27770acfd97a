/** How a generated toolset reaches its API. */
export interface ApiSettings {
  /** The API's base URL; paths are appended to it. */
  baseUrl: string;
  /** How long one upstream request may take (default 30 s). */
  timeoutMs?: number;
  /** The MCP-side credential header and how its value goes upstream. */
  credential?: UpstreamCredential;
}

export interface UpstreamCredential {
  /** The header the MCP client sends (declared in the toolset's `credentialHeaders`). */
  header: string;
  /** `header`: sent under `name`; `bearer`: sent as `Authorization: Bearer <value>`. */
  sendAs: { in: 'header'; name: string } | { in: 'bearer' };
}

export const DEFAULT_TIMEOUT_MS = 30_000;

/** `petstore` → `PETSTORE_BASE_URL`, `my-api` → `MY_API_BASE_URL`. */
export function baseUrlVariable(toolsetName: string): string {
  return `${toolsetName.toUpperCase().replace(/-/g, '_')}_BASE_URL`;
}

/**
 * The settings a generated toolset starts from: the base URL from `<NAME>_BASE_URL` when set,
 * else the document's first server; the timeout from `<NAME>_TIMEOUT_MS` when set.
 */
export function settingsFromEnvironment(toolsetName: string, defaults: ApiSettings, env: NodeJS.ProcessEnv = process.env): ApiSettings {
  const variable = baseUrlVariable(toolsetName);
  const baseUrl = env[variable]?.trim() || defaults.baseUrl;
  try {
    new URL(baseUrl);
  } catch {
    throw new Error(`${variable} must be an absolute URL such as https://api.example.com/v1, got ${JSON.stringify(baseUrl)}.`);
  }
  const timeoutVariable = variable.replace(/_BASE_URL$/, '_TIMEOUT_MS');
  const timeout = env[timeoutVariable];
  if (timeout !== undefined && !/^\d+$/.test(timeout.trim())) throw new Error(`${timeoutVariable} must be a positive integer of milliseconds, got ${JSON.stringify(timeout)}.`);
  return { ...defaults, baseUrl, ...(timeout !== undefined && { timeoutMs: Number(timeout) }) };
}
