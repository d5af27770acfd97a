import { names } from '@nx/devkit';
import { collectOperations, type OperationFilter } from './collect-operations';
import { pascal, SchemaConverter } from './convert-schema';
import { className, DtoEmitter, dtoImports } from './emit-dtos';
import { apiModelOf, type ApiModel, type UpstreamAuth } from './api-model';
import { loadDocument } from './load-document';
import { pathGroup } from './operation-keywords';
import { plainText } from './plain-text';
import type { LocatePointer } from './source-lines';
import type { OperationModel, ParameterModel } from './operation-model';
import type { PropertyModel, SchemaModel } from './schema-model';
import { tsLiteral } from '../utils/ts-literal';
import { closest } from './closest-name';
import { checkConfigKeys } from './config-keys';
import { fieldTree, projectSchema, type FieldTree } from './project-result';
import { checkArgumentEntries, curateArgument, type ArgumentCuration, type CuratedArgument } from './curate-argument';

export type { ArgumentCuration };

/** What the generator reads besides the document: kept in the library as `openapi.config.json`. */
export interface OpenApiConfig extends OperationFilter {
  /** The MCP-side credential header; its value goes upstream as the document's security scheme says. */
  credentialHeader?: string;
  /** Bytes of JSON a tool's `tools/list` entry may take (see `@Toolset({ schemaBudget })`). */
  schemaBudget?: number;
  /** `tag`: one toolset class per tag (an operation's first tag), each a group a client can select. */
  groupBy?: 'tag';
  /**
   * Headers sent upstream on every request (an API version the operations expect): a parameter of
   * that name is no longer an argument.
   */
  headers?: Record<string, string>;
  /**
   * Per tool (by operationId or generated name): another name, title or description, more search
   * keywords, its behaviour hints, the OAuth scopes a caller's token needs for it, or left out. An
   * entry that names no operation of the document stops the generator (renamed or removed upstream).
   */
  tools?: Record<string, ToolCuration>;
  /**
   * Every tool's JSON answers are lenient: one that does not match the document is passed on as
   * `unchecked`, with a `note` and a warning in the log, instead of failing (a tool's own `lenient`
   * overrides this). Strict is the default: a document that lies is a bug to fix upstream.
   */
  lenient?: boolean;
  /**
   * Modules of your own under `src/` (composite tools written beside the generated ones, such as
   * `"./pet-workflows"`) that the generated `src/index.ts` exports too.
   */
  exports?: readonly string[];
}

/** One tool's curation in `openapi.config.json`. */
export interface ToolCuration {
  name?: string;
  title?: string;
  description?: string;
  keywords?: readonly string[];
  exclude?: boolean;
  headers?: Record<string, string>;
  /** Behaviour hints, over the ones the HTTP method gives (`openWorldHint: false` for an internal API). */
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint?: boolean };
  /** OAuth scopes the caller's access token must hold for this tool (`@RequireScopes`). */
  scopes?: readonly string[];
  /**
   * The fields of the answer's JSON body to keep, by path (`number`, `user.login`, `labels.name`;
   * arrays are walked through): the result's `data` is a smaller class of just these, advertised
   * and sent, for answers whose size is the problem.
   */
  fields?: readonly string[];
  /** The group (toolset) this tool joins when the library is grouped by tag, over its first tag. */
  group?: string;
  /** This tool's answers are lenient (or strict, with `false`), over the library's `lenient`. */
  lenient?: boolean;
  /** Per argument: a path, query or header parameter, or a JSON body's top-level field, by its name in the document. */
  arguments?: Record<string, ArgumentCuration>;
}

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
export async function generateToolset(name: string, document: unknown, config: OpenApiConfig, source = 'openapi.json', locate?: LocatePointer): Promise<GeneratedToolset> {
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
  const converter = new SchemaConverter(schemaNames);
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
    const call = { ...callFor(op, converter, { header: credential, auth: api.auth, schemeParameters: api.schemeParameters }, `${base}Args`, pinned, op.curation), requiresCredentials: requiredAlternatives(op, credentials) };
    warnings.push(...mirrorIntoHeaders(op, call.args ?? []));
    if (call.args) {
      emitter.emit({ name: `${base}Args`, properties: call.args });
      group.classNames.push(className(`${base}Args`));
    }
    const data = dataOf(op, converter, base);
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
function dataOf(op: CuratedOperation, converter: SchemaConverter, base: string): SchemaModel | undefined {
  if (!op.successBody) {
    if (op.fields) throw new Error(`${op.fields.entry}: the operation declares no JSON answer to pick fields from. Remove the entry.`);
    return undefined;
  }
  const data = converter.convert(op.successBody.schema, `${base}Data`);
  return op.fields ? projectSchema(op.fields.entry, data, op.fields.tree, `${base}Data`) : data;
}

const GENERATED_HEADER = `// Generated by @toolsets/workspace-plugin:openapi from openapi.json and openapi.config.json. Do not edit: change those and run \`npx nx sync\`.`;

/** An operation with its tool's curation applied (openapi.config.json `tools`). */
type CuratedOperation = OperationModel & { title?: string; scopes?: string[]; fields?: { entry: string; tree: FieldTree }; lenient?: boolean };

/** What a lenient tool's result adds: the answer that did not fit the document, and what did not fit. */
const LENIENT_PROPERTIES: PropertyModel[] = [
  {
    name: 'unchecked',
    required: false,
    schema: { kind: 'open', reason: 'a lenient answer is passed on as the API sent it', description: "The answer's JSON body when it does not match the API's document (this tool's answers are lenient): as the API sent it, in place of `data`." },
  },
  { name: 'note', required: false, schema: { kind: 'string', description: "What in the answer did not match the API's document, when it came as `unchecked`." } },
];

/** One generated toolset class: the whole library's, or one tag's. */
interface ToolsetGroup {
  className: string;
  toolsetName: string;
  description: string;
  /** The file under src/generated (without `.toolset.ts`). */
  file: string;
  methods: string[];
  classNames: string[];
  /** Some tool of the group attaches an answer's bytes as an embedded resource. */
  attachesContent?: boolean;
  /** Some tool of the group needs OAuth scopes (curated): the toolset imports `RequireScopes`. */
  scoped?: boolean;
}

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

/** The API client's token, settings and registration: in the toolset's file, or shared by every group's. */
function clientSource(name: string, api: ApiModel, credentials: readonly CredentialPlan[], headers: Record<string, string> | undefined, nested = false) {
  const token = `${name.toUpperCase().replace(/-/g, '_')}_API`;
  const settingsConst = `${token}_SETTINGS`;
  const provider = `${token}_PROVIDER`;
  const group = nested ? `${name.toUpperCase().replace(/-/g, '_')}_GROUP` : undefined;
  const registration = `{ token: ${token}, useFactory: instanceCachingFactory(() => new OpenApiClient(settingsFromEnvironment(${tsLiteral(name)}, ${settingsConst}))) }`;
  /** The token and the settings; the settings are exported only from the shared client module. */
  const declarations = (shared: boolean) => [
    `/** The client this toolset calls its API with; register another under this token to configure it in code. */`,
    `export const ${token} = Symbol.for('toolsets.openapi.${name}');`,
    '',
    `/** The document's defaults; \`<NAME>_BASE_URL\`, \`_TIMEOUT_MS\` and \`_MAX_RESPONSE_BYTES\` override them. */`,
    `${shared ? 'export ' : ''}const ${settingsConst}: ApiSettings = ${settingsLiteral(api, credentials, headers)};`,
  ];
  const source = [
    GENERATED_HEADER,
    "import { instanceCachingFactory } from 'tsyringe';",
    ...(group ? ["import { defineGroup } from '@toolsets/core';"] : []),
    "import { OpenApiClient, settingsFromEnvironment, type ApiSettings } from '@toolsets/openapi';",
    '',
    ...declarations(true),
    '',
    `/** One client for every group of this API (each group's class registers this same provider). */`,
    `export const ${provider} = ${registration};`,
    '',
    ...(group
      ? [
          `/** The whole API as one group of its tag toolsets: clients see it in groups/list and may select it whole (?toolsets=${name}). */`,
          `export const ${group} = defineGroup({ name: ${tsLiteral(name)}, description: ${tsLiteral(api.description)} });`,
          '',
        ]
      : []),
  ].join('\n');
  return { token, settingsConst, provider, registration, declarations, source, group };
}

function toolsetSource(name: string, group: ToolsetGroup, client: ReturnType<typeof clientSource>, config: OpenApiConfig, credentials: readonly CredentialPlan[], clientModule?: string): string {
  const { token, settingsConst, provider } = client;
  return [
    GENERATED_HEADER,
    clientModule ? "import { inject, registry } from 'tsyringe';" : "import { inject, instanceCachingFactory, registry } from 'tsyringe';",
    `import { LOGGER, RequestContext, ${group.scoped ? 'RequireScopes, ' : ''}Tool, ToolError, Toolset, type Logger${group.attachesContent ? ', type ResultWithContent' : ''} } from '@toolsets/core';`,
    clientModule ? "import { settingsFromEnvironment, type OpenApiClient } from '@toolsets/openapi';" : "import { OpenApiClient, settingsFromEnvironment, type ApiSettings } from '@toolsets/openapi';",
    `import { ${[...new Set(group.classNames)].sort().join(', ')} } from './dtos';`,
    ...(clientModule ? [`import { ${[...(client.group ? [client.group] : []), provider, token, settingsConst].join(', ')} } from '${clientModule}';`] : ['', ...client.declarations(false)]),
    '',
    `@registry([${clientModule ? provider : client.registration}])`,
    `@Toolset({`,
    `  name: ${tsLiteral(group.toolsetName)},`,
    `  description: ${tsLiteral(group.description)},`,
    ...(clientModule && client.group ? [`  groups: [${client.group}],`] : []),
    ...(credentials.length ? [`  credentialHeaders: [${credentials.map((c) => tsLiteral(c.header)).join(', ')}],`] : []),
    ...(config.schemaBudget ? [`  schemaBudget: ${config.schemaBudget},`] : []),
    `  generatedFrom: 'openapi.json and openapi.config.json',`,
    `  // An app refuses to start while the base URL is not usable, rather than failing every call.`,
    `  checkSettings: (env) => void settingsFromEnvironment(${tsLiteral(name)}, ${settingsConst}, env),`,
    `})`,
    `export class ${group.className} {`,
    '  constructor(',
    '    private readonly context: RequestContext,',
    `    @inject(${token}) private readonly api: OpenApiClient,`,
    '    @inject(LOGGER) private readonly logger: Logger,',
    '  ) {}',
    group.methods.join(''),
    '}',
    '',
  ].join('\n');
}

interface CallShape {
  args?: PropertyModel[];
  /** `{ petId: args.petId }` and the like, per location. */
  pathParams: string[];
  query: string[];
  headers: string[];
  /** Parameters whose style or explode is not their location's default. */
  styles: Record<string, { style: string; explode: boolean }>;
  body?: string;
  /** An optional body's own required fields: required as soon as any field of the body is given. */
  bodyRequired?: string[];
  /** Optional credential headers this operation needs: it marks their parameters required. */
  requiresCredentials?: string[];
}

/** Header names that look like a credential: an API key, a token, a secret. */
const CREDENTIAL_LOOKALIKE = /(api[-_]?key|token|secret|auth)/i;

/**
 * A warning for each header parameter that looks like a credential in a document that declares no
 * security scheme, unless it is the credential header: as an argument, a model would see the key.
 */
function credentialLookalikes(operations: readonly OperationModel[], api: ApiModel, credential: string | undefined): string[] {
  if (api.auth) return [];
  const names = new Set(operations.flatMap((op) => op.parameters.filter((p) => p.in === 'header' && CREDENTIAL_LOOKALIKE.test(p.name) && p.name.toLowerCase() !== credential).map((p) => p.name)));
  return [...names].map(
    (name) => `the header parameter ${name} looks like a credential, but the document declares no security scheme, so it is a tool argument a model would see and fill; regenerate with --credentialHeader=${name.toLowerCase()} to take it from the caller's headers instead`,
  );
}

/** Parameter names that carry a credential when the operation is secured (Slack's `token`), whatever the scheme says. */
const CREDENTIAL_PARAMETER = /^(token|access[-_]?token|api[-_]?key|auth[-_]?token|authorization)$/i;

/** Whether a parameter carries the API credential: it is the client's to send, never an argument a model sees. */
function isCredentialParameter(parameter: ParameterModel, op: OperationModel, credential: { header?: string; auth?: UpstreamAuth; schemeParameters?: ApiModel['schemeParameters'] }): boolean {
  const { auth } = credential;
  if (parameter.in === 'header' && parameter.name.toLowerCase() === credential.header) return true;
  // A parameter one of the document's apiKey schemes names is a credential on every operation, secured or not.
  if (credential.schemeParameters?.some((scheme) => scheme.in === parameter.in && (scheme.in === 'header' ? scheme.name.toLowerCase() === parameter.name.toLowerCase() : scheme.name === parameter.name))) return true;
  if (auth && (auth.kind === 'api-key-header' || auth.kind === 'api-key-query') && parameter.name === auth.name && parameter.in === (auth.kind === 'api-key-header' ? 'header' : 'query')) return true;
  return op.secured && (parameter.in === 'query' || parameter.in === 'header') && CREDENTIAL_PARAMETER.test(parameter.name);
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

/** The args class of an operation, and how the method maps it back onto the request. */
function callFor(
  op: OperationModel,
  converter: SchemaConverter,
  credential: Parameters<typeof isCredentialParameter>[2],
  argsName: string,
  pinned: ReadonlySet<string>,
  curation: Record<string, ArgumentCuration> = {},
): CallShape {
  const shape: CallShape = { pathParams: [], query: [], headers: [], styles: {} };
  const properties: PropertyModel[] = [];
  const usable = op.parameters.filter((p) => p.in !== 'cookie' && !isCredentialParameter(p, op, credential) && !(p.in === 'header' && pinned.has(p.name.toLowerCase())));
  const taken = new Set(usable.map((parameter) => parameter.name));
  const body = op.requestBody ? converter.convert(op.requestBody.schema, `${argsName}Body`, 'input') : undefined;
  // A JSON object body's fields are arguments of their own, unless one shares a parameter's name.
  const fields = body?.kind === 'object' && !body.nullable && body.properties.every((p) => !taken.has(p.name) && p.name !== 'body') ? body.properties : undefined;
  checkArgumentEntries(op, [...taken, ...(fields ? fields.map((field) => field.name) : body ? ['body'] : [])], curation);
  const seen = new Set<string>();
  for (const parameter of usable) {
    if (seen.has(parameter.name)) continue;
    seen.add(parameter.name);
    const schema = converter.convert(parameter.schema, `${argsName}${pascal(parameter.name)}`, 'input');
    const style = serializationOf(parameter);
    if (style) shape.styles[parameter.name] = style;
    const described = parameter.description ? { ...schema, description: plainText(parameter.description) } : schema;
    const curated = curateArgument(op, parameter.name, { name: parameter.name, required: parameter.required, schema: described }, curation[parameter.name]);
    target(shape, parameter).push(`${tsLiteral(parameter.name)}: ${sentValue(curated, defaultOf(parameter))}`);
    if ('property' in curated) properties.push(curated.property);
  }
  if (op.requestBody && body) {
    const required = op.requestBody.required;
    if (fields) {
      const sent: string[] = [];
      for (const field of fields) {
        const curated = curateArgument(op, field.name, { ...field, required: required && field.required }, curation[field.name]);
        sent.push(`${tsLiteral(field.name)}: ${sentValue(curated, '')}`);
        if ('property' in curated) properties.push(curated.property);
      }
      shape.body = `{ ${sent.join(', ')} }`;
      const bodyRequired = fields.filter((p) => p.required).map((p) => p.name);
      if (!required && bodyRequired.length > 0) shape.bodyRequired = bodyRequired;
    } else {
      const curated = curateArgument(op, 'body', { name: 'body', required, schema: body }, curation['body']);
      shape.body = sentValue(curated, '');
      if ('property' in curated) properties.push(curated.property);
    }
  }
  return properties.length ? { ...shape, args: properties } : shape;
}

/** What the method sends for an argument: its constant, or the caller's value (its default when left out). */
function sentValue(curated: CuratedArgument, documentDefault: string): string {
  if ('constant' in curated) return tsLiteral(curated.constant);
  const fallback = curated.fallback !== undefined ? ` ?? ${tsLiteral(curated.fallback)}` : documentDefault;
  return `${access(curated.property.name)}${fallback}`;
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

/**
 * ` ?? <default>` for an optional parameter whose schema has a default: the document says what
 * the API assumes, and some APIs refuse a request without it (a version header), so the caller's
 * silence sends the default rather than nothing.
 */
function defaultOf(parameter: ParameterModel): string {
  const schema = parameter.schema as { default?: unknown } | undefined;
  if (parameter.required || schema === null || typeof schema !== 'object' || schema.default === undefined || schema.default === null) return '';
  return ` ?? ${tsLiteral(schema.default)}`;
}

/** A parameter's style and explode when they differ from its location's default (query `form` exploded; path and header `simple`). */
function serializationOf(parameter: ParameterModel): { style: string; explode: boolean } | undefined {
  const defaultStyle = parameter.in === 'query' ? 'form' : 'simple';
  const style = parameter.style ?? defaultStyle;
  const explode = parameter.explode ?? style === 'form';
  const defaultExplode = defaultStyle === 'form';
  return style === defaultStyle && explode === defaultExplode ? undefined : { style, explode };
}

function target(shape: CallShape, parameter: ParameterModel): string[] {
  return parameter.in === 'path' ? shape.pathParams : parameter.in === 'query' ? shape.query : shape.headers;
}

function access(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? `args.${name}` : `args[${tsLiteral(name)}]`;
}

function methodSource(op: CuratedOperation, base: string, call: CallShape): string {
  const method = names(op.toolName).propertyName.replace(/[^A-Za-z0-9_$]/g, '_');
  const result = className(`${base}Result`);
  // Bytes come as an embedded resource beside the typed result.
  const returns = op.successMedia?.kind === 'binary' ? `${result} | ResultWithContent<${result}> | ToolError` : `${result} | ToolError`;
  const argsClass = className(`${base}Args`);
  const annotations = Object.keys(op.annotations).length ? `\n    annotations: ${objectLiteral({ ...op.annotations })},` : '';
  const fields = [
    `method: ${tsLiteral(op.method.toUpperCase())}`,
    `path: ${tsLiteral(op.path)}`,
    ...(call.pathParams.length ? [`pathParams: { ${call.pathParams.join(', ')} }`] : []),
    ...(call.query.length ? [`query: { ${call.query.join(', ')} }`] : []),
    ...(call.headers.length ? [`headers: { ${call.headers.join(', ')} }`] : []),
    ...(Object.keys(call.styles).length ? [`styles: ${tsLiteral(call.styles)}`] : []),
    ...(call.body ? [`body: ${call.body}`] : []),
    ...(op.requestBody && op.requestBody.encoding !== 'json' ? [`bodyEncoding: ${tsLiteral(op.requestBody.encoding)}`] : []),
    ...(op.requestBody && Object.keys(op.requestBody.styles).length ? [`bodyStyles: ${tsLiteral(op.requestBody.styles)}`] : []),
    ...(op.requestBody?.files.length ? [`files: ${tsLiteral(op.requestBody.files)}`] : []),
    ...(op.requestBody && !op.requestBody.required ? ['optionalBody: true'] : []),
    ...(call.bodyRequired ? [`bodyRequired: ${tsLiteral(call.bodyRequired)}`] : []),
    ...(call.requiresCredentials?.length ? [`requiresCredentials: ${tsLiteral(call.requiresCredentials)}`] : []),
    ...(op.requestBody?.mediaType ? [`bodyType: ${tsLiteral(op.requestBody.mediaType)}`] : []),
    ...(op.successBody ? ["responseType: 'json'", ...(op.jsonAccept ? [`accept: ${tsLiteral(op.jsonAccept)}`] : [])] : []),
    ...(op.fields ? [`keep: ${tsLiteral(op.fields.tree)}`] : []),
    ...(op.lenient ? [`lenient: ${result}`] : []),
    ...(op.successMedia ? [`responseType: ${tsLiteral(op.successMedia.kind)}`, `accept: ${tsLiteral(op.successMedia.types.join(', '))}`] : []),
  ];
  const curated = op;
  return `${curated.scopes ? `\n  @RequireScopes(${curated.scopes.map((scope) => tsLiteral(scope)).join(', ')})` : ''}
  @Tool({
    name: ${tsLiteral(op.toolName)},${curated.title ? `\n    title: ${tsLiteral(curated.title)},` : ''}
    description: ${tsLiteral(op.description)},${call.args ? `\n    args: ${argsClass},` : ''}
    returns: [${className(`${base}Result`)}, ToolError],${annotations}${op.keywords.length ? `\n    keywords: ${tsLiteral(op.keywords)},` : ''}
  })
  ${method}(${call.args ? `args: ${argsClass}` : ''}): Promise<${returns}> {
    return this.api.call({ ${fields.join(', ')} }, this.context, this.logger) as Promise<${returns}>;
  }
`;
}

/** The document's default settings: its first server, and how each credential goes upstream. */
function settingsLiteral(api: ApiModel, credentials: readonly CredentialPlan[], headers: Record<string, string> | undefined): string {
  const server = { baseUrl: api.baseUrl, ...(api.unusableServer && { unusableServer: api.unusableServer }), ...(headers && Object.keys(headers).length > 0 && { headers: fixedHeaders(headers) }) };
  const [first, ...more] = credentials;
  if (!first) return objectLiteral(server);
  return objectLiteral({
    ...server,
    credential: { header: first.header, sendAs: first.sendAs },
    ...(more.length > 0 && { moreCredentials: more.map((c) => ({ header: c.header, sendAs: c.sendAs, ...(c.optional && { optional: true }) })) }),
  });
}

/** One MCP-side credential header and how its value goes upstream. */
interface CredentialPlan {
  header: string;
  sendAs: Record<string, string>;
  optional: boolean;
}

/**
 * The credentials a generated toolset takes: `--credentialHeader` for the document's first scheme,
 * and for each other scheme its requirements name, a header of its own, `x-<toolset>-<parameter>`
 * (Trello's `token` query key comes from `x-trello-token`): required when a requirement lists it
 * with the first, else sent when the caller gives it. None without `--credentialHeader`.
 */
function credentialPlan(name: string, api: ApiModel, credential: string | undefined): CredentialPlan[] {
  if (!credential) return [];
  const plans: CredentialPlan[] = [{ header: credential, sendAs: sendAsOf(api.auth, credential), optional: false }];
  for (const more of api.moreAuth) {
    const part = ('name' in more.auth ? more.auth.name : more.scheme).toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'credential';
    let header = `x-${name.toLowerCase()}-${part}`;
    for (let n = 2; plans.some((plan) => plan.header === header); n++) header = `x-${name.toLowerCase()}-${part}-${n}`;
    plans.push({ header, sendAs: sendAsOf(more.auth, header), optional: !more.required });
  }
  return plans;
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

/**
 * The credentials the document offers as alternatives that `op` needs all the same: it lists
 * their parameters as required (a boards API lists `key` and `token` on every operation). Sent
 * when given either way; these are refused before the request when missing, naming the header.
 */
function requiredAlternatives(op: OperationModel, credentials: readonly CredentialPlan[]): string[] {
  return credentials
    .filter((plan) => plan.optional && op.parameters.some((parameter) => parameter.required && sameParameter(parameter, plan.sendAs)))
    .map((plan) => plan.header);
}

function sameParameter(parameter: ParameterModel, sendAs: Record<string, string>): boolean {
  if (sendAs['in'] === 'query') return parameter.in === 'query' && parameter.name === sendAs['name'];
  return sendAs['in'] === 'header' && parameter.in === 'header' && parameter.name.toLowerCase() === String(sendAs['name']).toLowerCase();
}

/** The config's `headers`, checked: a name and a value HTTP allows, each a string; a credential is never one of them. */
function fixedHeaders(headers: Record<string, string>): Record<string, string> {
  for (const [name, value] of Object.entries(headers)) {
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new Error(`openapi.config.json "headers": ${JSON.stringify(name)} is not an HTTP header name.`);
    if (typeof value !== 'string' || /[\r\n\0]/.test(value)) throw new Error(`openapi.config.json "headers": the value of ${name} must be a string on one line.`);
    if (/^(authorization|cookie|proxy-authorization)$/i.test(name)) throw new Error(`openapi.config.json "headers": ${name} would put a secret in the repository; the credential comes from --credentialHeader.`);
  }
  return headers;
}

function sendAsOf(auth: UpstreamAuth | undefined, credential: string): Record<string, string> {
  switch (auth?.kind) {
    case 'api-key-header':
      return { in: 'header', name: auth.name };
    case 'api-key-query':
      return { in: 'query', name: auth.name };
    case 'bearer':
    case 'basic':
      return { in: auth.kind };
    default:
      return { in: 'header', name: credential };
  }
}

/** `{ readOnlyHint: true }`: an object as a person writes it in TypeScript. */
function objectLiteral(value: Record<string, unknown>): string {
  const entries = Object.entries(value).map(([key, item]) => `${/^[A-Za-z_$][\w$]*$/.test(key) ? key : tsLiteral(key)}: ${literalOf(item)}`);
  return `{ ${entries.join(', ')} }`;
}

function literalOf(item: unknown): string {
  if (Array.isArray(item)) return `[${item.map(literalOf).join(', ')}]`;
  return typeof item === 'object' && item !== null ? objectLiteral(item as Record<string, unknown>) : tsLiteral(item);
}

export type { SchemaModel };
