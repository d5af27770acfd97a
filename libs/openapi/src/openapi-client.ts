import { STATUS_CODES } from 'node:http';
import { embeddedResource, resultCheck, ResultWithContent, stderrLogger, ToolError, withContent, type ClassType, type Logger, type RequestContext } from '@toolsets/core';
import { DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_TIMEOUT_MS, variablePrefix, type ApiSettings } from './api-settings';
import type { OperationCall } from './operation-call';
import { headerText, SIMPLE_DEFAULT } from './parameter-style';
import { IncompleteBody, InvalidFile, requestBody, type EncodedBody } from './request-body';
import { requestUrl, UnsafePathParameter } from './request-url';
import type { BodyRead } from './response-body';
import { MAX_REDIRECTS, RefusedRedirect, sendWithinOrigin } from './same-origin-redirects';
import { endUpstreamSpan, propagateTo, startUpstreamSpan } from './upstream-span';
import type { Span } from '@opentelemetry/api';
import { UpstreamTransport, type Cancellation, type UpstreamRequest } from './upstream-transport';
import { redactSecret } from './secret-redaction';
import { keepFields } from './kept-fields';

/** What a generated tool returns on a 2xx answer: its result class's shape. */
export interface OperationResult {
  message: string;
  status: number;
  data?: unknown;
  /** A `text` answer's body. */
  text?: string;
  /** A `text` or `binary` answer's media type, as the upstream sent it. */
  mediaType?: string;
  /** A `binary` answer's size in bytes (the bytes go as an embedded resource). */
  bytes?: number;
  /** A lenient tool's answer that does not fit the document, in place of `data`. */
  unchecked?: unknown;
  /** What in a lenient tool's answer did not fit the document. */
  note?: string;
}

/** The most of an upstream's own error message a ToolError's detail carries. */
const MAX_DETAIL = 500;
/** The most of an error body read: enough to find its message, never the whole of a huge one. */
const ERROR_BODY_BYTES = 16 * 1024;

/**
 * Makes the HTTP request of one tool call and trusts nothing the upstream sends: one deadline
 * covers the whole exchange, redirects and body included; a body is read up to a cap; redirects
 * stay on the base URL's origin; a 2xx whose body is cut off or is not the JSON the document
 * declares is an error. A 2xx answer becomes `{ message, status, data }` (the framework then
 * checks `data` against the document's schema); anything else becomes a `ToolError`. Messages name
 * "the upstream API", never its address, and never carry the caller's credential in any encoding.
 */
export class OpenApiClient {
  private readonly baseUrl: URL;
  private readonly timeoutMs: number;
  private readonly maxResponseBytes: number;
  private readonly transport = new UpstreamTransport();

  constructor(
    private readonly settings: ApiSettings,
    /** Where the reasons behind upstream failures go, with the upstream's origin (never a body), unless a call names its own. */
    private readonly logger: Logger = stderrLogger,
  ) {
    this.baseUrl = new URL(settings.baseUrl);
    this.timeoutMs = settings.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxResponseBytes = settings.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  }

  /** `logger`: the call's own (a toolset's injected `LOGGER`, which redacts the caller's credentials). */
  async call(operation: OperationCall, context: RequestContext, logger: Logger = this.logger): Promise<OperationResult | ResultWithContent<OperationResult> | ToolError> {
    const span = startUpstreamSpan(operation, this.baseUrl);
    try {
      const outcome = await this.send(operation, context, logger, span);
      endUpstreamSpan(span, outcome instanceof ResultWithContent ? outcome.result : outcome);
      return outcome;
    } catch (error) {
      endUpstreamSpan(span, error instanceof Error ? error : new Error(String(error)));
      throw error;
    }
  }

  private async send(operation: OperationCall, context: RequestContext, logger: Logger, span: Span): Promise<OperationResult | ResultWithContent<OperationResult> | ToolError> {
    const url = requestUrl(this.baseUrl, operation);
    if (url instanceof UnsafePathParameter) return new ToolError('invalid_argument', url.message);
    // What the document says the answer is: asking for JSON where it declares a PDF gets a 406.
    const headers: Record<string, string> = { accept: operation.accept ?? 'application/json' };
    for (const [name, value] of Object.entries(operation.headers ?? {})) {
      if (value !== undefined && value !== null) headers[name] = headerText(value, operation.styles?.[name] ?? SIMPLE_DEFAULT);
    }
    pinHeaders(headers, this.settings.headers);
    propagateTo(span, headers);
    // Throws the missing credential's error (naming the header, and over stdio its variable) before anything is sent.
    for (const header of operation.requiresCredentials ?? []) context.credential(header);
    const secrets = this.applyCredentials(headers, url, context);
    const body = requestBody(operation);
    if (body instanceof InvalidFile || body instanceof IncompleteBody) return new ToolError('invalid_argument', body.message);
    const exchange = new Exchange(`${operation.method} ${url.pathname}`, this.baseUrl.origin, this.timeoutMs, context.signal, logger);
    try {
      const request: UpstreamRequest = { method: operation.method, headers, cancel: exchange };
      if (body) {
        const encoded = await encodeBody(body);
        if (encoded.contentType) headers['content-type'] = encoded.contentType;
        request.body = encoded.bytes;
      }
      const answer = await sendWithinOrigin(this.transport, url, request, this.baseUrl.origin).catch((error: unknown) => new NoAnswer(error));
      if (answer instanceof RefusedRedirect) return exchange.refusedRedirect(answer);
      if (answer instanceof NoAnswer) return exchange.unavailable(answer.error);
      const outcome = `${exchange.what} returned ${answer.status} ${STATUS_CODES[answer.status] ?? ''}`.trimEnd();
      if (answer.status < 200 || answer.status > 299) {
        const errorBody = await answer.read(ERROR_BODY_BYTES);
        const upstream = secrets.reduce((text, secret) => redactSecret(text, secret), upstreamMessage(errorBody));
        return new ToolError(`http_${answer.status}`, upstream ? `${outcome}: ${upstream}` : `${outcome}.`);
      }
      const read = await answer.read(this.maxResponseBytes);
      if (read.ending === 'over_cap') return exchange.tooLarge(this.maxResponseBytes, this.settings.name);
      if (read.ending === 'cut_off') return exchange.cutOff(outcome, read.error);
      if (operation.responseType === 'text' || operation.responseType === 'binary') return this.mediaResult(operation, url, outcome, answer.status, answer.header('content-type'), read.bytes);
      const data = jsonData(answer.header('content-type'), read.bytes, operation.responseType === 'json');
      if (data instanceof InvalidBody) return exchange.invalid(outcome, data.problem, data.logReason);
      const result = { message: `${outcome}.`, status: answer.status, ...(data !== undefined && { data: operation.keep ? keepFields(data, operation.keep) : data }) };
      return operation.lenient && data !== undefined ? exchange.lenient(operation.lenient, result) : result;
    } finally {
      exchange.end();
    }
  }

  /**
   * A 2xx answer that is not JSON, as the document declares: text as the result's `text`; bytes
   * attached as an embedded resource with their media type (the result says their size). The
   * resource's URI names the toolset and the path, never the upstream's address or query.
   */
  private mediaResult(operation: OperationCall, url: URL, outcome: string, status: number, contentType: string | undefined, bytes: Buffer): OperationResult | ResultWithContent<OperationResult> {
    const mediaType = answerMediaType(contentType, operation.accept);
    if (operation.responseType === 'text') {
      const text = bytes.toString('utf8');
      return { message: `${outcome}: ${text.length} characters of ${mediaType}.`, status, text, mediaType };
    }
    const result = { message: `${outcome}: ${bytes.length} bytes of ${mediaType}, attached as an embedded resource.`, status, bytes: bytes.length, mediaType };
    const uri = `${resourceScheme(this.settings.name)}:${url.pathname}`;
    return withContent(result, embeddedResource({ uri, mimeType: mediaType, blob: bytes }));
  }

  /** Closes idle keep-alive connections to the upstream. */
  close(): void {
    this.transport.close();
  }

  /**
   * Sends the caller's credentials upstream as the document's schemes say (an optional one only
   * when given); returns each value and the exact text it went on the wire as (a Basic header's
   * base64, a query value's form encoding), so no message can repeat any of them.
   */
  private applyCredentials(headers: Record<string, string>, url: URL, context: RequestContext): string[] {
    const sent: string[] = [];
    for (const credential of [...(this.settings.credential ? [this.settings.credential] : []), ...(this.settings.moreCredentials ?? [])]) {
      if (credential.optional && !context.hasCredential(credential.header)) continue;
      const value = context.credential(credential.header);
      const { sendAs } = credential;
      sent.push(value);
      if (sendAs.in === 'bearer') headers['authorization'] = `Bearer ${value}`;
      else if (sendAs.in === 'basic') {
        const basic = Buffer.from(value.includes(':') ? value : `${value}:`).toString('base64');
        headers['authorization'] = `Basic ${basic}`;
        sent.push(basic);
      } else if (sendAs.in === 'query') {
        url.searchParams.set(sendAs.name, value);
        sent.push(new URLSearchParams([[sendAs.name, value]]).toString().slice(sendAs.name.length + 1));
      } else headers[sendAs.name.toLowerCase()] = value;
    }
    return sent;
  }
}

/**
 * The media type an answer is passed on as: the upstream's, when it is one the document declares
 * (or matches a declared `type/*`); else the first declared. An upstream cannot turn a PDF into
 * `text/html;profile=mcp-app`, which a host may render.
 */
function answerMediaType(contentType: string | undefined, accept: string | undefined): string {
  const declared = (accept ?? '')
    .split(',')
    .map((type) => type.split(';')[0]!.trim().toLowerCase())
    .filter(Boolean);
  const sent = contentType?.split(';')[0]!.trim().toLowerCase().slice(0, 100);
  const fits = (type: string) => declared.some((range) => range === type || range === '*/*' || (range.endsWith('/*') && type.startsWith(range.slice(0, -1))));
  if (sent && /^[\w.+-]+\/[\w.+-]+$/.test(sent) && (declared.length === 0 || fits(sent))) return sent;
  return declared.find((type) => !type.includes('*')) ?? 'application/octet-stream';
}

/**
 * One upstream exchange: its deadline, the caller's cancellation, and the ToolErrors it can end
 * in (logged with the upstream's origin, which the messages leave out).
 */
class Exchange implements Cancellation {
  private readonly timer: NodeJS.Timeout;
  private readonly listeners: (() => void)[] = [];
  private readonly onCancel = () => this.abort(this.callerSignal.reason);
  #aborted = false;
  #reason: unknown;

  constructor(
    readonly what: string,
    private readonly origin: string,
    private readonly timeoutMs: number,
    private readonly callerSignal: AbortSignal,
    private readonly logger: Logger,
  ) {
    // A plain flag and listeners, not an AbortController: on Node 20 each controller's signal is
    // made transferable, a cost a profile of generated tool calls showed on every call.
    this.timer = setTimeout(() => this.abort(new DOMException('timed out', 'TimeoutError')), timeoutMs);
    if (callerSignal.aborted) this.onCancel();
    else callerSignal.addEventListener('abort', this.onCancel, { once: true });
  }

  get aborted(): boolean {
    return this.#aborted;
  }

  get reason(): unknown {
    return this.#reason;
  }

  onAbort(listener: () => void): void {
    this.listeners.push(listener);
  }

  private abort(reason: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    for (const listener of this.listeners) listener();
  }

  end(): void {
    clearTimeout(this.timer);
    this.callerSignal.removeEventListener('abort', this.onCancel);
  }

  unavailable(error: unknown): ToolError {
    const why = this.aborted ? abortReason(this.reason, this.timeoutMs) : networkReason(error);
    this.logger.warn('upstream request failed', { operation: this.what, upstream: this.origin, reason: why });
    return new ToolError('upstream_unavailable', `${this.what}: the upstream API did not answer (${why}). Try again later.`);
  }

  refusedRedirect(refused: RefusedRedirect): ToolError {
    this.logger.warn('upstream redirect not followed', { operation: this.what, upstream: this.origin, status: refused.status, target: refused.targetOrigin, reason: refused.reason });
    const detail =
      refused.reason === 'other_origin'
        ? `the upstream API redirected (${refused.status}) to ${refused.targetOrigin}, another origin: not followed, and no credential was sent there`
        : refused.reason === 'too_many'
          ? `the upstream API redirected (${refused.status}) more than ${MAX_REDIRECTS} times: not followed further`
          : `the upstream API redirected (${refused.status}) to a Location that is not a URL`;
    return new ToolError('upstream_redirect', `${this.what}: ${detail}.`);
  }

  tooLarge(maxBytes: number, toolset: string | undefined): ToolError {
    this.logger.warn('upstream answer over the size cap', { operation: this.what, upstream: this.origin, maxBytes });
    const variable = toolset ? `${variablePrefix(toolset)}_MAX_RESPONSE_BYTES` : 'maxResponseBytes in the toolset settings';
    return new ToolError(
      'upstream_too_large',
      `${this.what}: the upstream API's answer is larger than ${maxBytes} bytes, the most this server reads. ` +
        `Ask for less (a smaller page or a filter), or have the operator raise ${variable}.`,
    );
  }

  cutOff(outcome: string, error: unknown): ToolError {
    const why = this.aborted ? abortReason(this.reason, this.timeoutMs) : `the connection ended first (${networkReason(error)})`;
    return this.invalid(outcome, `its body did not arrive in full (${why})`, `body cut off: ${why}`);
  }

  /**
   * A lenient tool's answer: as it is when it fits the result class; else passed on as `unchecked`
   * (typed `unknown`, so the advertised schema still holds) with a `note` saying what did not fit,
   * and a warning in the log. The problems name paths and rules, never the answer's values.
   */
  lenient(resultClass: ClassType, result: OperationResult & { data?: unknown }): OperationResult {
    const problems = resultCheck(resultClass)(result);
    if (problems.length === 0) return result;
    const shown = problems.slice(0, MAX_NOTED_PROBLEMS);
    this.logger.warn('upstream answer does not match the API document; passed on unchecked (lenient)', { operation: this.what, upstream: this.origin, problems: shown });
    const more = problems.length > shown.length ? ` (and ${problems.length - shown.length} more)` : '';
    return {
      message: `${result.message} The answer does not match the API's document, so it comes as \`unchecked\` instead of \`data\`.`,
      status: result.status,
      unchecked: result.data,
      note: `Not as the API's document says: ${shown.map((problem) => problem.replace(/^\/data/, '') || '/').join('; ')}${more}.`,
    };
  }

  invalid(outcome: string, problem: string, logReason: string): ToolError {
    this.logger.warn('upstream answer not usable', { operation: this.what, upstream: this.origin, reason: logReason });
    return new ToolError('upstream_invalid_response', `${outcome}, but ${problem}, so it is not a success. Try again; if it persists, the upstream API is misbehaving.`);
  }
}

/** The most problems a lenient answer's note and log line name. */
const MAX_NOTED_PROBLEMS = 3;

/** The request failed before any answer: refused, reset, timed out, or an invalid header value. */
class NoAnswer {
  constructor(readonly error: unknown) {}
}

/** A 2xx body that is not what the document or its own Content-Type says. */
class InvalidBody {
  constructor(
    readonly problem: string,
    readonly logReason: string,
  ) {}
}

/** The body as data: parsed JSON when it is JSON (or must be), else undefined; an InvalidBody when it cannot be what it should. */
function jsonData(contentType: string | undefined, bytes: Buffer, declaredJson: boolean): unknown {
  const type = contentType ?? null;
  const saysJson = isJsonType(type);
  if (!saysJson && !declaredJson) return undefined;
  const text = bytes.toString('utf8');
  if (text.trim() === '') return undefined;
  if (!saysJson && type !== null) {
    const media = type.split(';')[0]!.trim().slice(0, 100);
    return new InvalidBody(`its body is ${media}, where the API's document declares JSON`, `content-type ${media} where JSON is declared (${bytes.length} bytes)`);
  }
  try {
    return JSON.parse(text);
  } catch {
    // Never the parser's message: it quotes the body.
    return new InvalidBody('its body is not valid JSON (it may have been cut short)', `body is not valid JSON (${bytes.length} bytes)`);
  }
}

function isJsonType(type: string | null): boolean {
  return /^application\/([\w.-]+\+)?json/i.test(type ?? '');
}

/** The upstream's own words: a JSON body's `message`, `error` or `detail`, else its text, trimmed. */
function upstreamMessage(body: BodyRead): string {
  const text = body.bytes.toString('utf8');
  const json = safeJson(text) as Record<string, unknown> | undefined;
  const field = messageIn(json, 0);
  const message = ((field as string | undefined) ?? text).replace(/\s+/g, ' ').trim();
  return message.length > MAX_DETAIL ? `${message.slice(0, MAX_DETAIL)}…` : message;
}

/** The first text under `message`, `error_description`, `error`, `detail` or `title`, looking one object deep (`{"error":{"message":…}}`). */
function messageIn(json: unknown, depth: number): string | undefined {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return undefined;
  const record = json as Record<string, unknown>;
  for (const key of ['message', 'error_description', 'error', 'detail', 'title']) {
    const value = record[key];
    if (typeof value === 'string') return value;
    if (depth === 0 && typeof value === 'object') {
      const nested = messageIn(value, depth + 1);
      if (nested !== undefined) return nested;
    }
  }
  return undefined;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function abortReason(reason: unknown, timeoutMs: number): string {
  return (reason as Error | undefined)?.name === 'TimeoutError' ? `timed out after ${timeoutMs} ms` : 'the call was cancelled';
}

function networkReason(error: unknown): string {
  const code = (error as { code?: string }).code ?? (error as { cause?: { code?: string } }).cause?.code;
  return code === 'ECONNREFUSED' ? 'connection refused' : code === 'ENOTFOUND' ? 'host not found' : (code ?? 'network error');
}

/** A body as bytes: multipart forms encoded by the platform (which writes the boundary into the Content-Type). */
async function encodeBody(body: EncodedBody): Promise<{ bytes: Buffer | string; contentType?: string }> {
  if (typeof body.body === 'string') return { bytes: body.body, contentType: body.contentType };
  const encoded = new Response(body.body);
  return { bytes: Buffer.from(await encoded.arrayBuffer()), contentType: encoded.headers.get('content-type') ?? undefined };
}

/** The settings' fixed headers, replacing whatever a call set under the same name in any letter case. */
function pinHeaders(headers: Record<string, string>, pinned: Record<string, string> | undefined): void {
  for (const [name, value] of Object.entries(pinned ?? {})) {
    for (const key of Object.keys(headers)) if (key.toLowerCase() === name.toLowerCase()) delete headers[key];
    headers[name.toLowerCase()] = value;
  }
}

/** A URI scheme from a toolset's name (`my-api` → `my-api`), `upstream` when it has none usable. */
function resourceScheme(name: string | undefined): string {
  const scheme = (name ?? '').toLowerCase().replace(/[^a-z0-9+.-]/g, '-');
  return /^[a-z][a-z0-9+.-]*$/.test(scheme) ? scheme : 'upstream';
}
