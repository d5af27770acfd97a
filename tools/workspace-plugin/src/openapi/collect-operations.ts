import type { OpenApiDocument } from './load-document';
import type { HttpMethod, OperationModel, ParameterModel, ToolAnnotationsModel } from './operation-model';
import { assignToolNames, baseToolName } from './tool-names';

const METHODS: readonly HttpMethod[] = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** The longest description a generated tool carries; longer ones are cut at a word. */
export const MAX_DESCRIPTION = 1_024;

export interface OperationFilter {
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
  requestBody?: { required?: boolean; content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
  'x-mcp'?: boolean;
}

interface RawParameter {
  name: string;
  in: ParameterModel['in'];
  required?: boolean;
  description?: string;
  schema?: unknown;
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
        annotations: annotationsFor(method),
        parameters: parametersOf(shared, operation.parameters ?? []),
        ...requestBodyOf(operation),
        ...successBodyOf(operation),
      });
    }
  }
  const names = assignToolNames(kept.map((op) => ({ base: baseToolName(op.operationId, op.method, op.path), method: op.method, path: op.path })));
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
  const parts = [operation.summary?.trim(), operation.description?.trim()].filter((part): part is string => !!part);
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
  return [...byKey.values()].map((parameter) => ({
    name: parameter.name,
    in: parameter.in,
    required: parameter.in === 'path' || parameter.required === true,
    ...(parameter.description !== undefined && { description: parameter.description }),
    schema: parameter.schema ?? {},
  }));
}

function jsonSchemaOf(content: Record<string, { schema?: unknown }> | undefined): unknown {
  const type = Object.keys(content ?? {}).find((media) => /^application\/([\w.-]+\+)?json(;|$)/i.test(media));
  return type === undefined ? undefined : (content![type].schema ?? {});
}

function requestBodyOf(operation: RawOperation): Pick<OperationModel, 'requestBody'> {
  const schema = jsonSchemaOf(operation.requestBody?.content);
  return schema === undefined ? {} : { requestBody: { required: operation.requestBody?.required === true, schema } };
}

function successBodyOf(operation: RawOperation): Pick<OperationModel, 'successBody'> {
  const statuses = Object.keys(operation.responses ?? {})
    .filter((status) => /^2(\d\d|XX)$/i.test(status))
    .sort();
  for (const status of statuses) {
    const schema = jsonSchemaOf(operation.responses![status].content);
    if (schema !== undefined) return { successBody: { status, schema } };
  }
  return {};
}
