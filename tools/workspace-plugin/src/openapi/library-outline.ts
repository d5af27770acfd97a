import { apiModelOf } from './api-model';
import { collectOperations } from './collect-operations';
import { pascal, SchemaConverter } from './convert-schema';
import { operationArguments } from './toolset-source';
import { loadDocument } from './load-document';
import type { OpenApiConfig } from './openapi-config';
import type { SchemaModel } from './schema-model';

/** One argument as the config names it: its name in the document, whether it is required, and what it takes. */
export interface OutlinedArgument {
  name: string;
  required: boolean;
  type: string;
}

/** One operation as a curator writes its entry: its key, its tool, its arguments and the paths of its answer. */
export interface OutlinedOperation {
  /** The key of its `tools` entry: the operationId, else the generated tool name. */
  key: string;
  /** The tool name it is served under (the config's `name`, else the generated one). */
  tool: string;
  route: string;
  arguments: OutlinedArgument[];
  /** Every path `fields` takes (`user.login`; arrays are walked through), with its type; absent without a JSON answer. */
  answer?: { path: string; type: string }[];
}

/** How deep answer paths are followed: a document's recursive or very nested answers stop here. */
const MAX_DEPTH = 6;

/**
 * What a curator needs to write `openapi.config.json` without reading the document: each included
 * operation's key, its arguments by the names `arguments` takes, and its answer's paths as `fields`
 * takes them. Read from the document as the generator reads it (dereferenced, filtered by the
 * config's include and exclude, credential parameters left out), before any curation.
 */
export async function outlineLibrary(document: unknown, config: OpenApiConfig): Promise<OutlinedOperation[]> {
  const { document: loaded, schemaNames } = await loadDocument(document, 'openapi.json');
  const api = apiModelOf(loaded);
  const converter = new SchemaConverter(schemaNames, loaded);
  const pinned = new Set(Object.keys(config.headers ?? {}).map((name) => name.toLowerCase()));
  const credential = { header: config.credentialHeader?.toLowerCase(), auth: api.auth, schemeParameters: api.schemeParameters };
  return collectOperations(loaded, config)
    .filter((op) => !op.unsupported && !config.tools?.[op.operationId ?? op.toolName]?.exclude)
    .map((op) => {
      const key = op.operationId ?? op.toolName;
      const argsName = `${pascal(op.toolName)}Args`;
      const taken = operationArguments(op, converter, credential, pinned, argsName);
      const { body, fields } = taken;
      const parameters = taken.parameters.map((p) => ({ name: p.name, required: p.required, type: typeOf(converter.convert(p.schema, `${argsName}${pascal(p.name)}`, 'input')) }));
      const bodyArguments = fields
        ? fields.map((field) => ({ name: field.name, required: op.requestBody!.required && field.required, type: typeOf(field.schema) }))
        : body
          ? [{ name: 'body', required: op.requestBody!.required, type: typeOf(body) }]
          : [];
      return {
        key,
        tool: config.tools?.[key]?.name ?? op.toolName,
        route: `${op.method.toUpperCase()} ${op.path}`,
        arguments: [...parameters, ...bodyArguments],
        ...(op.successBody && { answer: answerPaths(converter.convert(op.successBody.schema, 'Data')) }),
      };
    });
}

/** The paths of an answer's fields, arrays walked through and union arms merged, each once. */
function answerPaths(schema: SchemaModel): { path: string; type: string }[] {
  const found = new Map<string, string>();
  const walk = (model: SchemaModel, prefix: string, open: readonly SchemaModel[]): void => {
    if (open.includes(model) || open.length >= MAX_DEPTH) return;
    if (model.kind === 'array') return walk(model.items, prefix, open);
    if (model.kind === 'union') return model.arms.forEach((arm) => walk(arm, prefix, open));
    if (model.kind !== 'object') return;
    for (const property of model.properties) {
      const path = prefix ? `${prefix}.${property.name}` : property.name;
      if (!found.has(path)) found.set(path, typeOf(property.schema));
      walk(property.schema, path, [...open, model]);
    }
  };
  walk(schema, '', []);
  return [...found].map(([path, type]) => ({ path, type }));
}

/** A short type, as a curator reads it: `string`, `integer`, `"ASC" | "DESC"`, `object`, `array of object`. */
function typeOf(model: SchemaModel): string {
  const nullable = model.nullable ? ' | null' : '';
  switch (model.kind) {
    case 'enum':
      return `${model.values.slice(0, 8).map((value) => JSON.stringify(value)).join(' | ')}${model.values.length > 8 ? ' | …' : ''}${nullable}`;
    case 'array':
      return `array of ${typeOf(model.items)}${nullable}`;
    case 'union':
      return [...new Set(model.arms.map(typeOf))].join(' | ') + nullable;
    case 'open':
      return 'any';
    default:
      return `${model.kind}${nullable}`;
  }
}

/** The outline as the `openapi-paths` target prints it: an operation a block, its answer's paths one a line. */
export function formatOutline(operations: readonly OutlinedOperation[]): string[] {
  const lines: string[] = [];
  for (const op of operations) {
    lines.push(`"${op.key}"${op.tool !== op.key ? ` (tool ${op.tool})` : ''}: ${op.route}`);
    lines.push(`  arguments: ${op.arguments.map((a) => `${a.name}${a.required ? '' : '?'}: ${a.type}`).join(', ') || 'none'}`);
    if (!op.answer) lines.push('  fields: none (no JSON answer)');
    else {
      lines.push('  fields:');
      for (const { path, type } of op.answer) lines.push(`    ${path}: ${type}`);
    }
  }
  return lines;
}
