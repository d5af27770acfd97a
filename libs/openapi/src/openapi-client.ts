import { STATUS_CODES } from 'node:http';
import { ToolError, type RequestContext } from '@toolsets/core';
import { DEFAULT_TIMEOUT_MS, type ApiSettings } from './api-settings';
import type { OperationCall } from './operation-call';

/** What a generated tool returns on a 2xx answer: its result class's shape. */
export interface OperationResult {
  message: string;
  status: number;
  data?: unknown;
}

/** The most of an upstream's own error message a ToolError's detail carries. */
const MAX_DETAIL = 500;

/**
 * Makes the HTTP request of one tool call: the platform's `fetch`, the call's AbortSignal joined
 * with a timeout, the caller's credential sent the way the document's security scheme says. A 2xx
 * answer becomes `{ message, status, data }` (the framework then checks `data` against the
 * document's schema); anything else becomes a `ToolError`. Credentials never reach a message.
 */
export class OpenApiClient {
  constructor(private readonly settings: ApiSettings) {}

  async call(operation: OperationCall, context: RequestContext): Promise<OperationResult | ToolError> {
    const url = this.url(operation);
    const headers: Record<string, string> = { accept: 'application/json' };
    for (const [name, value] of Object.entries(operation.headers ?? {})) if (value !== undefined && value !== null) headers[name] = String(value);
    const secret = this.applyCredential(headers, context);
    const init: RequestInit = {
      method: operation.method,
      headers,
      signal: AbortSignal.any([context.signal, AbortSignal.timeout(this.settings.timeoutMs ?? DEFAULT_TIMEOUT_MS)]),
    };
    if (operation.body !== undefined) {
      headers['content-type'] = 'application/json';
      init.body = JSON.stringify(operation.body);
    }
    const what = `${operation.method} ${url.pathname}`;
    let response: Response;
    try {
      response = await fetch(url, init);
    } catch (error) {
      return new ToolError('upstream_unavailable', `${what}: the API at ${url.origin} did not answer (${reason(error)}). Try again later.`);
    }
    const text = await response.text().catch(() => '');
    const outcome = `${what} returned ${response.status} ${response.statusText || STATUS_CODES[response.status] || ''}`.trimEnd();
    if (!response.ok) {
      const upstream = redact(upstreamMessage(text), secret);
      return new ToolError(`http_${response.status}`, upstream ? `${outcome}: ${upstream}` : `${outcome}.`);
    }
    const data = isJson(response) && text.trim() !== '' ? safeJson(text) : undefined;
    return { message: `${outcome}.`, status: response.status, ...(data !== undefined && { data }) };
  }

  private url(operation: OperationCall): URL {
    const path = operation.path.replace(/\{([^}]+)\}/g, (_whole, name: string) => encodeURIComponent(String(operation.pathParams?.[name] ?? '')));
    const url = new URL(this.settings.baseUrl.replace(/\/+$/, '') + path);
    for (const [name, value] of Object.entries(operation.query ?? {})) {
      if (value === undefined || value === null) continue;
      for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(name, typeof item === 'object' ? JSON.stringify(item) : String(item));
    }
    return url;
  }

  /** Sends the caller's credential upstream; returns it, so no message can repeat it. */
  private applyCredential(headers: Record<string, string>, context: RequestContext): string | undefined {
    const credential = this.settings.credential;
    if (!credential) return undefined;
    const value = context.credential(credential.header);
    if (credential.sendAs.in === 'bearer') headers['authorization'] = `Bearer ${value}`;
    else headers[credential.sendAs.name.toLowerCase()] = value;
    return value;
  }
}

function isJson(response: Response): boolean {
  return /^application\/([\w.-]+\+)?json/i.test(response.headers.get('content-type') ?? '');
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The upstream's own words: a JSON body's `message`, `error` or `detail`, else its text, trimmed. */
function upstreamMessage(text: string): string {
  const json = safeJson(text) as Record<string, unknown> | undefined;
  const field = json && typeof json === 'object' ? ['message', 'error_description', 'error', 'detail', 'title'].map((key) => json[key]).find((v) => typeof v === 'string') : undefined;
  const message = ((field as string | undefined) ?? text).replace(/\s+/g, ' ').trim();
  return message.length > MAX_DETAIL ? `${message.slice(0, MAX_DETAIL)}…` : message;
}

function redact(text: string, secret: string | undefined): string {
  return secret ? text.split(secret).join('[redacted]') : text;
}

function reason(error: unknown): string {
  const cause = (error as { cause?: { code?: string } }).cause;
  if ((error as Error).name === 'TimeoutError') return 'timed out';
  if ((error as Error).name === 'AbortError') return 'the call was cancelled';
  return cause?.code === 'ECONNREFUSED' ? 'connection refused' : cause?.code === 'ENOTFOUND' ? 'host not found' : cause?.code ?? 'network error';
}
