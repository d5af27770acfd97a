import { names } from '@nx/devkit';
import { collectOperations } from './collect-operations';
import { pascal, SchemaConverter } from './convert-schema';
import { className, DtoEmitter, dtoImports } from './emit-dtos';
import { apiModelOf, type ApiModel } from './api-model';
import { loadDocument } from './load-document';
import { pathGroup } from './operation-keywords';
import { plainText } from './plain-text';
import type { LocatePointer } from './source-lines';
import type { OperationModel } from './operation-model';
import type { PropertyModel, SchemaModel } from './schema-model';
import { closest } from './closest-name';
import { checkConfigKeys } from './config-keys';
import { SharedCuration } from './shared-curation';
import { fieldTree, projectSchema } from './project-result';
import type { ArgumentCuration } from './curate-argument';
import type { OpenApiConfig, ToolCuration } from './openapi-config';
import { credentialLookalikes, credentialPlan, requiredAlternatives } from './credential-plan';
import { callFor, clientSource, methodSource, toolsetSource, GENERATED_HEADER, type CuratedOperation, type ToolsetGroup } from './toolset-source';

export type { ArgumentCuration };
export type { OpenApiConfig, ToolCuration } from './openapi-config';

export interface GeneratedToolset {
  /** Paths relative to the library root, and their content. */
  files: Record<string, string>;
  toolNames: string[];
  /** The toolset classes it exports, with their toolset names (one, or one per tag). */
  toolsets: { className: string; name: string }[];
  /** Schemas the framework cannot express yet, by reason: generated as open values. */
  openValues: ReadonlyMap<string, number>;
  /** What the document says that the generator could not keep, one line each. */
  warnings: readonly string[];
  /** Operations left out because they cannot work as tools, each with its reason. */
  leftOut: readonly { operation: string; reason: string }[];
}

export const GENERATED_DTOS = 'src/generated/dtos.ts';
export const generatedToolsetFile = (name: string) => `src/generated/${name}.toolset.ts`;

/**
 * The generated sources of a toolset library, as a pure function of the document and the config:
 * stable order, stable names, no timestamps, so regenerating an unchanged document changes no byte.
 */
export async function generateToolset(name: string, document: unknown, config: OpenApiConfig = {}, source = 'openapi.json', locate?: LocatePointer): Promise<GeneratedToolset> {
  checkConfigKeys(config);
  const { document: loaded, schemaNames, warnings: readingWarnings } = await loadDocument(document, source, locate);
  // Read the document into models first; the emitting below never looks at raw OpenAPI.
  const api = apiModelOf(loaded);
  const overrides = config.tools ?? {};
  const collected = collectOperations(loaded, config);
  // Against every operation of the document: an entry for one the filters leave out is not stale.
  if (Object.keys(overrides).length > 0) checkCurationEntries(overrides, collectOperations(loaded, {}));
  const leftOut = collected.filter((op) => op.unsupported).map((op) => ({ operation: `${op.method.toUpperCase()} ${op.path}${op.operationId ? ` (${op.operationId})` : ''}`, reason: op.unsupported! }));
  const operations = collected
    .filter((op) => !op.unsupported)
    .filter((op) => !(overrides[op.operationId ?? ''] ?? overrides[op.toolName])?.exclude)
    .map((op) => {
      const override = overrides[op.operationId ?? ''] ?? overrides[op.toolName];
      // The config's keywords add to the derived ones, as the document's `x-mcp-keywords` do (within the gate's 64).
      const extra = Array.isArray(override?.keywords) ? override.keywords.filter((word): word is string => typeof word === 'string' && word.trim() !== '') : [];
      const keywords = [...new Set([...op.keywords, ...extra.map((word) => word.toLowerCase().slice(0, 64))])].slice(0, 64);
      return {
        ...op,
        toolName: override?.name ?? op.toolName,
        generatedName: op.toolName,
        description: override?.description ?? op.description,
        keywords,
        mirrored: override?.headers ?? {},
        annotations: { ...op.annotations, ...curatedAnnotations(override?.annotations) },
        ...(override?.title && { title: override.title }),
        ...(override?.group !== undefined && { group: curatedGroup(op, override.group, config), tags: [override.group, ...op.tags] }),
        ...(override?.scopes?.length && { scopes: [...override.scopes] }),
        curation: override?.arguments ?? {},
        lenient: !!op.successBody && (override?.lenient ?? config.lenient ?? false) === true,
        ...(override?.fields !== undefined && { fields: { entry: `openapi.config.json "tools"."${op.operationId ?? op.toolName}"."fields"`, tree: fieldTree(`openapi.config.json "tools"."${op.operationId ?? op.toolName}"."fields"`, override.fields) } }),
      };
    });
  const converter = new SchemaConverter(schemaNames, loaded);
  const shared = new SharedCuration(config);
  const emitter = new DtoEmitter();
  const credential = config.credentialHeader?.toLowerCase();
  const credentials = credentialPlan(name, api, credential);
  const groups = new Map<string, ToolsetGroup>();
  const warnings: string[] = [...readingWarnings, ...credentialLookalikes(operations, api, credential)];
  const pinned = new Set(Object.keys(config.headers ?? {}).map((name) => name.toLowerCase()));
  const tagDescriptions = tagDescriptionsOf(loaded);
  // One tag over the whole document groups nothing: such a document is grouped by path nouns instead.
  const onlyTag = operations[0]?.tags[0];
  const byPath = config.groupBy === 'tag' && operations.length > 1 && onlyTag !== undefined && operations.every((op) => op.tags[0] === onlyTag);
  if (byPath) warnings.push(`every operation has the tag '${onlyTag}', so the toolsets are grouped by the first noun of each path instead`);
  for (const op of operations) {
    const group = groupOf(groups, name, byPath ? { ...op, tags: op.group ? [op.group] : [] } : op, config.groupBy, api, tagDescriptions);
    const base = pascal(op.toolName);
    const call = { ...callFor(op, converter, { header: credential, auth: api.auth, schemeParameters: api.schemeParameters }, `${base}Args`, pinned, op.curation, shared), requiresCredentials: requiredAlternatives(op, credentials) };
    warnings.push(...mirrorIntoHeaders(op, call.args ?? []));
    if (call.args) {
      emitter.emit({ name: `${base}Args`, properties: call.args });
      group.classNames.push(className(`${base}Args`));
    }
    const data = dataOf(op, converter, base, shared);
    emitter.emit({
      name: `${base}Result`,
      description: `What ${op.method.toUpperCase()} ${op.path} answered.`,
      extendsClass: 'ToolResult',
      properties: [
        { name: 'status', required: true, schema: { kind: 'integer', description: 'The HTTP status of the answer.' } },
        ...(data ? [{ name: 'data', required: false, schema: { ...data, description: data.description ?? 'The JSON body of the answer.' } }] : []),
        ...mediaProperties(op),
        ...(op.lenient ? LENIENT_PROPERTIES : []),
      ],
    });
    group.classNames.push(className(`${base}Result`));
    group.methods.push(methodSource(op, base, call));
    if (op.successMedia?.kind === 'binary') group.attachesContent = true;
    if ((op as { scopes?: unknown }).scopes) group.scoped = true;
  }
  shared.check(documentTags(loaded));
  const dtos = `${GENERATED_HEADER}\n${dtoImports(emitter.uses, { core: ['ToolResult'] })}\n\n${emitter.source()}\n`;
  // A library grouped by tag is a group of its tag toolsets (unless a tag already has its name).
  const nested = config.groupBy !== undefined && !groups.has(name);
  const client = clientSource(name, api, credentials, config.headers, nested);
  const files: Record<string, string> = { [GENERATED_DTOS]: dtos };
  if (config.groupBy) {
    files[`src/generated/${name}.client.ts`] = client.source;
    for (const group of groups.values()) files[`src/generated/${group.file}.toolset.ts`] = toolsetSource(name, group, client, config, credentials, `./${name}.client`);
  } else {
    const [only] = groups.values();
    files[generatedToolsetFile(name)] = toolsetSource(name, only, client, config, credentials);
  }
  const modules = Object.keys(files).map((file) => `./${file.slice('src/'.length, -'.ts'.length)}`);
  files['src/index.ts'] = `${GENERATED_HEADER}\n${[...modules, ...ownModules(config.exports)].map((module) => `export * from '${module}';`).join('\n')}\n`;
  return {
    files,
    toolNames: operations.map((op) => op.toolName),
    toolsets: [...groups.values()].map((group) => ({ className: group.className, name: group.toolsetName })),
    openValues: converter.openValues,
    warnings: [...warnings, ...converter.warnings],
    leftOut,
  };
}

/** The answer's JSON body as the result's `data`: the document's schema, or the curated fields of it. */
function dataOf(op: CuratedOperation, converter: SchemaConverter, base: string, shared: SharedCuration): SchemaModel | undefined {
  if (!op.successBody) {
    if (op.fields) throw new Error(`${op.fields.entry}: the operation declares no JSON answer to pick fields from. Remove the entry.`);
    return undefined;
  }
  const data = converter.convert(op.successBody.schema, `${base}Data`);
  if (op.fields) return projectSchema(op.fields.entry, data, op.fields.tree, `${base}Data`);
  // A list written for the library or a tag cuts the answers that have all of its fields; the others stay whole.
  for (const { tree, where } of shared.fieldsFor(op.tags)) {
    let cut: SchemaModel;
    try {
      cut = projectSchema(where, data, tree, `${base}Data`);
    } catch {
      continue;
    }
    shared.tookFields(where);
    return cut;
  }
  return data;
}

/** What a lenient tool's result adds: the answer that did not fit the document, and what did not fit. */
const LENIENT_PROPERTIES: PropertyModel[] = [
  {
    name: 'unchecked',
    required: false,
    schema: { kind: 'open', reason: 'a lenient answer is passed on as the API sent it', description: "The answer's JSON body when it does not match the API's document (this tool's answers are lenient): as the API sent it, in place of `data`." },
  },
  { name: 'note', required: false, schema: { kind: 'string', description: "What in the answer did not match the API's document, when it came as `unchecked`." } },
];

/** Operations without a tag, whose path has no noun either, go to this group when grouping by tag. */
const UNTAGGED = 'other';

function groupOf(groups: Map<string, ToolsetGroup>, name: string, op: OperationModel, groupBy: OpenApiConfig['groupBy'], api: ApiModel, tags: ReadonlyMap<string, string>): ToolsetGroup {
  // An untagged operation joins the group of its path's first noun (`/v1/customers/{id}` → customers).
  const tag = groupBy ? (op.tags[0] ?? pathGroup(op.path) ?? UNTAGGED) : name;
  const key = groupBy ? names(tag).fileName.replace(/[^a-z0-9-]+/g, '-').replace(/^-+|-+$/g, '') || UNTAGGED : name;
  let group = groups.get(key);
  if (!group) {
    const description = groupBy ? (tags.get(tag) ?? `${api.description.split(':')[0]}: the ${op.tags[0] ? tag : `/${tag}`} operations.`) : api.description;
    group = {
      className: groupBy ? `${names(name).className}${names(key).className}Toolset` : `${names(name).className}Toolset`,
      toolsetName: key,
      description,
      file: groupBy ? key : name,
      methods: [],
      classNames: [],
    };
    groups.set(key, group);
  }
  return group;
}

/** Each tag's own description (first line, plain text), as the document's `tags` give them. */
function tagDescriptionsOf(document: unknown): Map<string, string> {
  const tags = (document as { tags?: { name?: unknown; description?: unknown }[] }).tags;
  const found = new Map<string, string>();
  for (const tag of Array.isArray(tags) ? tags : []) {
    if (typeof tag?.name !== 'string' || typeof tag.description !== 'string') continue;
    const line = plainText(tag.description).trim().split('\n')[0].slice(0, 300);
    if (line) found.set(tag.name, line);
  }
  return found;
}

/**
 * Marks the arguments `tools.<operation>.headers` names (`{ "region": "Region" }`) to be mirrored
 * into `Mcp-Param-*` headers, so gateways route by them; a name that is not one of the operation's
 * path or query parameters is left alone, with a warning saying so.
 */
function mirrorIntoHeaders(op: OperationModel & { mirrored: Record<string, string> }, args: PropertyModel[]): string[] {
  const warnings: string[] = [];
  for (const [parameter, header] of Object.entries(op.mirrored)) {
    const declared = op.parameters.find((p) => p.name === parameter && (p.in === 'path' || p.in === 'query'));
    const argument = declared && args.find((property) => property.name === parameter);
    if (!argument || typeof header !== 'string') {
      warnings.push(`openapi.config.json mirrors '${parameter}' of ${op.operationId ?? op.toolName} into a header, but it is not a path or query parameter of that operation; it was left out`);
      continue;
    }
    argument.header = header;
  }
  return warnings;
}

/**
 * A result's fields for an answer that is not JSON: text comes back as `text`; bytes are attached
 * to the result as an embedded resource, and the result says their size. Both say the media type.
 */
function mediaProperties(op: OperationModel): PropertyModel[] {
  if (!op.successMedia) return [];
  const mediaType: PropertyModel = { name: 'mediaType', required: false, schema: { kind: 'string', description: `The media type of the body, as the upstream API sent it (the document declares ${op.successMedia.types.join(', ')}).` } };
  if (op.successMedia.kind === 'text') return [{ name: 'text', required: false, schema: { kind: 'string', description: 'The body of the answer, as text.' } }, mediaType];
  return [{ name: 'bytes', required: false, schema: { kind: 'integer', description: 'The size of the body in bytes. The body itself comes with the result, as an embedded resource (base64) with its media type.' } }, mediaType];
}

/** The config's `exports`, checked: relative modules under src/, outside the generated folder. */
function ownModules(exports: unknown): string[] {
  if (exports === undefined) return [];
  const modules = Array.isArray(exports) ? exports : [exports];
  for (const module of modules) {
    if (typeof module !== 'string' || !/^\.\/[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/.test(module) || module.startsWith('./generated/') || module === './index') {
      throw new Error(`openapi.config.json "exports": ${JSON.stringify(module)} is not a module of your own under src/: write it as "./pet-workflows" (no extension, not under ./generated).`);
    }
  }
  return modules as string[];
}

/** A tool's curated group, checked: a name, in a library that is grouped. */
function curatedGroup(op: OperationModel, group: unknown, config: OpenApiConfig): string {
  const where = `openapi.config.json "tools"."${op.operationId ?? op.toolName}"."group"`;
  if (!config.groupBy) throw new Error(`${where}: a tool's group applies when the library is grouped: set "groupBy": "tag" in openapi.config.json, or remove the entry.`);
  if (typeof group !== 'string' || !/[a-z0-9]/i.test(group)) throw new Error(`${where}: ${JSON.stringify(group)} is not a group name (letters, digits, dashes).`);
  return group;
}

/** The hints a curation sets; `false` is kept (an internal API's `openWorldHint: false`). */
function curatedAnnotations(annotations: ToolCuration['annotations']): Record<string, boolean> {
  const hints = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;
  return Object.fromEntries(hints.filter((hint) => typeof annotations?.[hint] === 'boolean').map((hint) => [hint, annotations![hint]!]));
}

/**
 * Stops the generator at a curation entry that names no operation (by operationId or generated
 * tool name): the document was refreshed and the operation renamed or removed upstream, and the
 * curation would otherwise be dropped without a word. Names the closest operation when one is close.
 */
function checkCurationEntries(overrides: Record<string, ToolCuration>, operations: readonly OperationModel[]): void {
  const known = new Set(operations.flatMap((op) => [op.operationId, op.toolName].filter((name): name is string => !!name)));
  const stale = Object.keys(overrides).filter((key) => !known.has(key));
  if (stale.length === 0) return;
  const lines = stale.map((key) => {
    const near = closest(key, [...known]);
    return `- "${key}": no operation of the document has this operationId or tool name (renamed or removed upstream?). ${near ? `Did the operation become "${near}"? Rename the entry to it, or remove it.` : 'Remove the entry, or name the operation as the document now calls it.'}`;
  });
  throw new Error(`openapi.config.json "tools" curates operations the document no longer has:\n${lines.join('\n')}`);
}

export type { SchemaModel };

/** Every tag an operation of the document has, whatever is included. */
function documentTags(document: unknown): string[] {
  const paths = ((document as { paths?: Record<string, Record<string, { tags?: unknown }>> }).paths ?? {}) as Record<string, Record<string, { tags?: unknown }>>;
  const tags = Object.values(paths).flatMap((item) => Object.values(item ?? {}).flatMap((op) => (op && Array.isArray(op.tags) ? op.tags.filter((tag): tag is string => typeof tag === 'string') : [])));
  return [...new Set(tags)];
}
