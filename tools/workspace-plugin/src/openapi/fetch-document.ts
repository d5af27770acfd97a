import { parse as parseYaml } from 'yaml';

/** Where a library's document comes from, as `openapi.config.json` records it. */
export interface DocumentSource {
  /** The document's `http(s)` URL. */
  source: string;
  /**
   * Request headers, each naming the environment variable that holds its value
   * (`{ "authorization": "PETSTORE_SPEC_TOKEN" }`): the value itself is never stored.
   */
  sourceHeaders?: Record<string, string>;
}

export interface FetchLimits {
  /** The whole exchange, redirects and body included (default 30 s). */
  timeoutMs?: number;
  /** The most bytes of body read (default 50 MiB; Kubernetes' document is about 4 MiB). */
  maxBytes?: number;
}

/** The document as fetched: its text (for line numbers and the stored copy) and its parsed value. */
export interface FetchedDocument {
  text: string;
  document: Record<string, unknown>;
}

export const DEFAULT_FETCH_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_DOCUMENT_BYTES = 50 * 1024 * 1024;
const MAX_REDIRECTS = 5;

/** A source that could not be fetched or is not an OpenAPI document: the message names the URL and what it gave. */
export class DocumentFetchError extends Error {
  constructor(readonly url: string, reason: string) {
    super(`Could not use the OpenAPI document at ${url}: ${reason}`);
    this.name = 'DocumentFetchError';
  }
}

/** Whether `--spec` names a URL rather than a file. */
export function isDocumentUrl(spec: string): boolean {
  return /^https?:\/\//i.test(spec);
}

/** The request headers a source names, read from the environment; a missing variable is an error naming it. */
export function sourceHeadersFrom(source: DocumentSource, env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [header, variable] of Object.entries(source.sourceHeaders ?? {})) {
    const value = env[variable];
    if (!value) throw new DocumentFetchError(source.source, `its ${header} header comes from the environment variable ${variable}, which is not set. Set it (the value is never written to the library).`);
    headers[header] = value;
  }
  return headers;
}

/**
 * Fetches an OpenAPI document with the platform `fetch`: one deadline for the whole exchange,
 * redirects followed only within the URL's origin (undici would carry custom headers, an API key
 * among them, to any host), a cap on the body read, and a refusal of a non-2xx answer or of a body
 * that is not a JSON or YAML OpenAPI/Swagger document.
 */
export async function fetchDocument(url: string, headers: Record<string, string> = {}, limits: FetchLimits = {}): Promise<FetchedDocument> {
  const timeoutMs = limits.timeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS;
  const maxBytes = limits.maxBytes ?? DEFAULT_MAX_DOCUMENT_BYTES;
  let current: URL;
  try {
    current = new URL(url);
  } catch {
    throw new DocumentFetchError(url, 'it is not a URL.');
  }
  if (current.protocol !== 'http:' && current.protocol !== 'https:') throw new DocumentFetchError(url, `only http and https URLs are fetched, not ${current.protocol}`);
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    for (let redirects = 0; ; redirects++) {
      const response = await getAgain(current, { headers: { accept: 'application/json, application/yaml;q=0.9, */*;q=0.1', ...headers }, redirect: 'manual', signal });
      if (response.status >= 300 && response.status < 400 && response.headers.has('location')) {
        await response.body?.cancel();
        const next = new URL(response.headers.get('location')!, current);
        if (next.origin !== current.origin) throw new DocumentFetchError(url, `it redirects (${response.status}) to another origin, ${next.origin}, which is not followed. Use the final URL as the source if you trust it.`);
        if (redirects >= MAX_REDIRECTS) throw new DocumentFetchError(url, `more than ${MAX_REDIRECTS} redirects.`);
        current = next;
        continue;
      }
      if (!response.ok) {
        await response.body?.cancel();
        throw new DocumentFetchError(url, `the server answered ${response.status} ${response.statusText}`.trim() + '.');
      }
      const text = await readCapped(response, maxBytes, url);
      return { text, document: parseDocument(text, url, response.status) };
    }
  } catch (error) {
    if (error instanceof DocumentFetchError) throw error;
    if (signal.aborted) throw new DocumentFetchError(url, `no complete answer within ${timeoutMs} ms.`);
    const cause = (error as Error & { cause?: { code?: string; message?: string } }).cause;
    throw new DocumentFetchError(url, `the request failed (${cause?.code ?? cause?.message ?? (error as Error).message}).`);
  }
}

/** Attempts of a GET whose connection is closed before any answer (see getAgain). */
const RESET_ATTEMPTS = 3;
/** The pause before asking again: the pool then hears of the other connections the server closed meanwhile. */
const RESET_PAUSE_MS = 50;

/**
 * A GET, asked again when an attempt's connection was closed before any answer came
 * (`ECONNRESET`, undici's "other side closed"): a kept-alive connection the server let go of as it
 * was reused, the race every HTTP client meets; browsers ask again for an idempotent request, and
 * so does this, up to RESET_ATTEMPTS times in all, after a short pause. Asked at once, a second
 * attempt could meet a second kept-alive connection the server had closed at the same moment (one
 * clean-clone CI run on a slow machine: the refresh e2e, whose process had been busy for seconds
 * while its in-process server's keep-alive timers ran out). Any other failure is reported as it is.
 */
async function getAgain(url: URL, init: RequestInit & { signal: AbortSignal }): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fetch(url, init);
    } catch (error) {
      const code = (error as { cause?: { code?: string } }).cause?.code;
      if (attempt >= RESET_ATTEMPTS || init.signal.aborted || !(code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE')) throw error;
      await new Promise((resolve) => setTimeout(resolve, RESET_PAUSE_MS));
    }
  }
}

async function readCapped(response: Response, maxBytes: number, url: string): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (declared > maxBytes) {
    await response.body?.cancel();
    throw new DocumentFetchError(url, `the answer is ${declared} bytes, over the ${maxBytes}-byte cap.`);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body ?? []) {
    size += chunk.byteLength;
    if (size > maxBytes) throw new DocumentFetchError(url, `the answer passed the ${maxBytes}-byte cap; stopped reading.`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf-8');
}

/** The body as a document: JSON, else YAML, with an `openapi` or `swagger` version at the top. */
export function parseDocument(text: string, url: string, status = 200): Record<string, unknown> {
  let value: unknown;
  try {
    value = /^\s*[{[]/.test(text) ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    throw new DocumentFetchError(url, `the answer (${status}) is neither JSON nor YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  const version = typeof value === 'object' && value !== null ? ((value as Record<string, unknown>)['openapi'] ?? (value as Record<string, unknown>)['swagger']) : undefined;
  if (typeof version !== 'string') {
    const start = text.trimStart().slice(0, 40).replace(/\s+/g, ' ');
    throw new DocumentFetchError(url, `the answer (${status}) is not an OpenAPI document: it has no "openapi" or "swagger" version (it starts with ${JSON.stringify(start)}).`);
  }
  return value as Record<string, unknown>;
}
