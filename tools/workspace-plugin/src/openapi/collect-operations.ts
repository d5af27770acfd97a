import type { OpenApiDocument } from './load-document';
import type { HttpMethod, OperationModel, ParameterModel, ToolAnnotationsModel } from './operation-model';
import { plainText } from './plain-text';
import { operationKeywords } from './operation-keywords';
import { assignToolNames, baseToolName } from './tool-names';

const METHODS: readonly HttpMethod[] = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** The longest description a generated tool carries; longer ones are cut at a word. */
export const MAX_DESCRIPTION = 1_024;

export interface OperationFilter {
  /** Put before every tool name (`stripe_…`). */
  prefix?: string;
  includeTags?: readonly string[];
  excludeTags?: readonly string[];
  /** operationId globs (`*` matches any run of characters). */
  include?: readonly string[];
  exclude?: readonly string[];
}

interface RawOperation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: RawParameter[];
  requestBody?: { required?: boolean; content?: Record<string, RawMedia> };
  responses?: Record<string, { content?: Record<string, RawMedia> }>;
  security?: unknown[];
  'x-mcp'?: boolean;
  /** Twitter's mark of an operation that answers with an endless stream. */
  'x-twitter-streaming'?: boolean;
  'x-mcp-keywords'?: unknown;
}

interface RawMedia {
  schema?: unknown;
  encoding?: Record<string, { style?: string; explode?: boolean }>;
}

interface RawParameter {
  name: string;
  in: ParameterModel['in'];
  required?: boolean;
  description?: string;
  schema?: unknown;
  style?: string;
  explode?: boolean;
}

/**
 * Every operation of a dereferenced document, in document order (paths as written, methods in a
 * fixed order), as the neutral model the emitter reads. `x-mcp: false` and the filters leave
 * operations out; names are assigned over what is left, so they are stable for a given document.
 */
export function collectOperations(document: OpenApiDocument, filter: OperationFilter = {}): OperationModel[] {
  const kept: Omit<OperationModel, 'toolName'>[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    if (!item) continue;
    const shared = (item['parameters'] as RawParameter[] | undefined) ?? [];
    for (const method of METHODS) {
      const operation = item[method] as RawOperation | undefined;
      if (!operation || operation['x-mcp'] === false || !selected(operation, filter)) continue;
      kept.push({
        operationId: operation.operationId,
        method,
        path,
        description: describe(operation, method, path),
        tags: operation.tags ?? [],
        keywords: operationKeywords(method, path, operation.tags ?? [], stringsOf(operation['x-mcp-keywords'])),
        annotations: annotationsFor(method),
        parameters: parametersOf(shared, operation.parameters ?? []),
        secured: (operation.security ?? document.security ?? []).length > 0,
        ...requestBodyOf(operation, method),
        ...successBodyOf(operation),
      });
      const streaming = streamingOf(operation);
      if (streaming && !kept[kept.length - 1]!.unsupported) kept[kept.length - 1]!.unsupported = streaming;
    }
  }
  const names = assignToolNames(kept.map((op) => ({ base: baseToolName(op.operationId, op.method, op.path, filter.prefix), method: op.method, path: op.path })));
  return kept.map((op, index) => ({ toolName: names[index], ...op }));
}

/** GET and HEAD read; DELETE destroys; PUT and DELETE may be repeated safely. */
export function annotationsFor(method: HttpMethod): ToolAnnotationsModel {
  return {
    ...((method === 'get' || method === 'head') && { readOnlyHint: true as const }),
    ...(method === 'delete' && { destructiveHint: true as const }),
    ...((method === 'put' || method === 'delete') && { idempotentHint: true as const }),
  };
}

/** `x-mcp-keywords`: the strings of an array; anything else says nothing. */
function stringsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string' && item.trim() !== '') : [];
}

function selected(operation: RawOperation, filter: OperationFilter): boolean {
  const tags = operation.tags ?? [];
  if (filter.includeTags?.length && !tags.some((tag) => filter.includeTags!.includes(tag))) return false;
  if (filter.excludeTags?.some((tag) => tags.includes(tag))) return false;
  const id = operation.operationId ?? '';
  if (filter.include?.length && !filter.include.some((glob) => globMatches(glob, id))) return false;
  if (filter.exclude?.some((glob) => globMatches(glob, id))) return false;
  return true;
}

function globMatches(glob: string, value: string): boolean {
  const pattern = glob.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*');
  return new RegExp(`^${pattern}$`).test(value);
}

function describe(operation: RawOperation, method: HttpMethod, path: string): string {
  const parts = [operation.summary, operation.description].map((part) => (part ? plainText(part) : '')).filter((part) => !!part);
  const unique = parts.length === 2 && parts[1].startsWith(parts[0]) ? [parts[1]] : parts;
  const text = unique.join('\n\n') || `${method.toUpperCase()} ${path}`;
  if (text.length <= MAX_DESCRIPTION) return text;
  const cut = text.slice(0, MAX_DESCRIPTION - 1);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), MAX_DESCRIPTION / 2)).trimEnd()}…`;
}

/** Path-level parameters, overridden by the operation's own of the same name and location. */
function parametersOf(shared: readonly RawParameter[], own: readonly RawParameter[]): ParameterModel[] {
  const byKey = new Map<string, RawParameter>();
  for (const parameter of [...shared, ...own]) byKey.set(`${parameter.in}:${parameter.name}`, parameter);
  // Content-Type and Accept are the client's to set from the body and the answer it reads, never a model's.
  return [...byKey.values()]
    .filter((parameter) => !(parameter.in === 'header' && /^(content-type|accept)$/i.test(parameter.name)))
    .map((parameter) => ({
      name: parameter.name,
      in: parameter.in,
      required: parameter.in === 'path' || parameter.required === true,
      ...(parameter.description !== undefined && { description: parameter.description }),
      schema: parameter.schema ?? {},
      ...(parameter.style !== undefined && { style: parameter.style }),
      ...(parameter.explode !== undefined && { explode: parameter.explode }),
    }));
}

/** JSON, a `+json` type, or `*\/*` and `application/*` (Kubernetes sends JSON under those). */
const JSON_MEDIA = /^(application\/([\w.-]+\+)?json|\*\/\*|application\/\*)\s*(;|$)/i;
/** A JSON media type the document names as such: `application/json` or a `+json` type, not a wildcard. */
const NAMED_JSON_MEDIA = /^application\/([\w.-]+\+)?json\s*(;|$)/i;

/**
 * The Accept header of an operation whose answers are JSON under other names than
 * `application/json` (`application/vnd.api.video+json`, `application/problem+json` for its errors):
 * every JSON media type its responses declare, success first, `application/json` among them only
 * where declared. A server that answers only what is asked for refuses `application/json` (406).
 * Undefined when the document names `application/json` alone (or only wildcards): the default.
 */
function jsonAcceptOf(operation: RawOperation): string | undefined {
  const statuses = Object.keys(operation.responses ?? {}).sort((a, b) => Number(!/^2/.test(a)) - Number(!/^2/.test(b)));
  const types = [...new Set(statuses.flatMap((status) => Object.keys(operation.responses![status].content ?? {}).filter((media) => NAMED_JSON_MEDIA.test(media))))];
  if (types.length === 0 || (types.length === 1 && /^application\/json\s*(;|$)/i.test(types[0]!))) return undefined;
  return types.join(', ');
}

function jsonSchemaOf(content: Record<string, RawMedia> | undefined): unknown {
  const type = Object.keys(content ?? {}).find((media) => JSON_MEDIA.test(media));
  return type === undefined ? undefined : (content![type].schema ?? {});
}

function holdsNothing(schema: unknown): boolean {
  const object = schema as { type?: unknown; properties?: object; additionalProperties?: unknown } | undefined;
  return object?.type === 'object' && Object.keys(object.properties ?? {}).length === 0 && object.additionalProperties === false;
}

/** The body as the generator can send it, by preference JSON, then a URL-encoded form, then multipart; else why not. */
function requestBodyOf(operation: RawOperation, method: HttpMethod): Pick<OperationModel, 'requestBody' | 'unsupported'> {
  const content = operation.requestBody?.content;
  const types = Object.keys(content ?? {});
  if (types.length === 0) return {};
  // A body that can hold nothing (Stripe declares `{ type: object, properties: {}, additionalProperties: false }` on its GETs) is no body.
  if (types.every((media) => holdsNothing(content![media].schema))) return {};
  // fetch refuses a body on GET and HEAD: a document that declares one there cannot be followed.
  if (method === 'get' || method === 'head') {
    return operation.requestBody?.required ? { unsupported: `it is a ${method.toUpperCase()} with a required request body, which HTTP clients cannot send` } : {};
  }
  const required = operation.requestBody?.required === true;
  const json = types.find((media) => JSON_MEDIA.test(media));
  if (json) {
    // Sent as the type the document declares (`application/vnd.api.video+json`), which a server that reads only it requires.
    const mediaType = NAMED_JSON_MEDIA.test(json) && !/^application\/json\s*(;|$)/i.test(json) ? json : undefined;
    return { requestBody: { required, schema: content![json].schema ?? {}, encoding: 'json', styles: {}, files: [], ...(mediaType && { mediaType }) } };
  }
  const form = types.find((media) => /^application\/x-www-form-urlencoded\s*(;|$)/i.test(media));
  const multipart = types.find((media) => /^multipart\/form-data\s*(;|$)/i.test(media));
  const chosen = form ?? multipart;
  if (chosen === undefined) return { unsupported: `its request body is ${types.join(', ')}, which the generator cannot send (it sends JSON, URL-encoded forms and multipart forms)` };
  const media = content![chosen];
  const schema = (media.schema ?? {}) as { properties?: Record<string, { format?: string; type?: string }> };
  const styles = Object.fromEntries(
    Object.entries(media.encoding ?? {})
      .filter(([, encoding]) => encoding.style !== undefined || encoding.explode !== undefined)
      .map(([field, encoding]) => [field, { style: encoding.style ?? 'form', explode: encoding.explode ?? (encoding.style ?? 'form') === 'form' }]),
  );
  if (form) return { requestBody: { required, schema, encoding: 'form', styles, files: [] } };
  // Binary parts are files; a `format: byte` field is base64 text already, sent as it is.
  const files = Object.entries(schema.properties ?? {})
    .filter(([, property]) => property?.format === 'binary')
    .map(([field]) => field);
  return { requestBody: { required, schema, encoding: 'multipart', styles, files } };
}

function successBodyOf(operation: RawOperation): Pick<OperationModel, 'successBody' | 'successMedia' | 'jsonAccept'> {
  const statuses = Object.keys(operation.responses ?? {})
    .filter((status) => /^2(\d\d|XX)$/i.test(status))
    .sort();
  for (const status of statuses) {
    const schema = jsonSchemaOf(operation.responses![status].content);
    if (schema !== undefined) {
      const accept = jsonAcceptOf(operation);
      return { successBody: { status, schema }, ...(accept && { jsonAccept: accept }) };
    }
  }
  // No JSON anywhere: what the API does answer with, text before bytes.
  const types = [...new Set(statuses.flatMap((status) => Object.keys(operation.responses![status].content ?? {})))].filter((type) => !STREAMING_MEDIA.test(type));
  if (types.length === 0) return {};
  const text = types.filter((type) => TEXT_MEDIA.test(type));
  return { successMedia: text.length > 0 ? { kind: 'text', types: text } : { kind: 'binary', types } };
}

/** Media types of answers that never end, or end only when the client hangs up: server-sent events and JSON lines. */
const STREAMING_MEDIA = /^(text\/event-stream|application\/(x-)?ndjson|application\/(x-)?json-?lines|application\/jsonl|application\/stream\+json)\b/i;
/** Media types read as text: text/* (CSV, plain, HTML), XML, YAML, JavaScript. */
const TEXT_MEDIA = /^(text\/|application\/([\w.-]+\+)?(xml|yaml|x-yaml|javascript|csv|sql|graphql)\b)/i;

/**
 * Why an operation that answers with a stream cannot be a tool (a tool call returns once, and a
 * stream may never end): a success response in a streaming media type only, or a vendor's mark.
 */
function streamingOf(operation: RawOperation): string | undefined {
  if (operation['x-twitter-streaming'] === true) return 'it answers with a stream (x-twitter-streaming), which may never end and a tool call returns once; call the API directly for streams';
  const success = Object.entries(operation.responses ?? {}).filter(([status]) => /^2(\d\d|XX)$/i.test(status));
  const types = success.flatMap(([, response]) => Object.keys(response.content ?? {}));
  const streams = types.filter((type) => STREAMING_MEDIA.test(type));
  if (streams.length === 0 || streams.length < types.length) return undefined;
  return `it answers with a stream (${streams[0]}), which may never end and a tool call returns once; call the API directly for streams`;
}
