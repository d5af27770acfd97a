import type { ParamHeader } from './param-headers';
import type { ClassType } from '../types/class-type';
import type { Prompt, Resource, ResourceTemplateType as ResourceTemplate, Tool, UriTemplate } from '@modelcontextprotocol/server';
import type { Completer } from '../metadata/completer-metadata';
import type { SchemaValidator } from './lazy-validator';
import type { SchemaNode } from '../types/schema-node';
import type { ClassModel } from '../schema/type-model';
import type { Materializer } from './args-materializer';
import type { Projector } from './result-projector';
import type { RuleCheck } from './rule-check';
import type { DroppedKeysFinder } from './dropped-keys';
import type { ElicitationForm } from './elicitation-form';
import type { InterceptorClass } from '../metadata/tool-interceptor';
import type { CompiledTaskOptions } from '../metadata/tool-task';
import type { ViewDefinition, ViewVisibility } from '../metadata/tool-view';

/** One arm of a tool's output: how to clean a returned value and how to check the cleaned value. */
export interface OutputArm {
  model: ClassModel;
  /** The arm's whole output schema (TypeBox), emitted on first use: what results are validated against. */
  schema: () => SchemaNode;
  project: Projector;
  validator: SchemaValidator;
  /** class-validator, for rules the schema cannot express; absent when the class has none. */
  checkRules?: RuleCheck;
  /** Lists the keys projection drops (development only). */
  droppedKeys: DroppedKeysFinder;
}

/** Everything a call needs, computed by the gate at startup. */
export interface CompiledTool {
  name: string;
  toolset: CompiledToolset;
  methodName: string;
  /** `@Tool({ origin })`, or `<Toolset class>.<method>`: what it stands for across renames (the contract pairs renamed tools by it). */
  origin: string;
  /** The scopes a caller's token must hold: its toolset's and its own (`@RequireScopes`), sorted, once each. */
  requiredScopes: readonly string[];
  /** Its toolset's `@UseInterceptors`, then its own, in the order they run (after the app's). */
  interceptors: readonly InterceptorClass[];
  /** The entry advertised in `tools/list`, JSON-clean. */
  descriptor: Tool;
  /**
   * The output schema results are validated against, JSON-clean: the advertised one unless the
   * toolset's `schemaBudget` cut it, then the whole (made on first use). For what a model asks for
   * by name (code mode's `describe` and type check), never for `tools/list`.
   */
  outputSchemaInFull: () => Tool['outputSchema'];
  /** `@Tool({ keywords })`, checked: more words for discovery search to find the tool by. */
  keywords: readonly string[];
  inputSchema: SchemaNode;
  inputValidator: SchemaValidator;
  /** Undefined for a tool without `args`: it receives `{}`. */
  materialize?: Materializer;
  /** class-validator, for argument rules the schema cannot express; absent when there are none. */
  checkArgRules?: RuleCheck;
  ok: OutputArm;
  /** Present when the tool is declared `returns: [XResult, ToolError]`. */
  error?: OutputArm;
  /** The forms the tool declares in `elicits`, compiled: the only ones its `context.elicit` may ask for. */
  elicitationForms?: ReadonlyMap<ClassType, ElicitationForm>;
  /** Set when the entry is over its toolset's `schemaBudget`: its input schema alone does not fit (inputs are never cut). */
  overSchemaBudget?: { bytes: number; budget: number };
  /** The arguments 2026-07-28 clients mirror into `Mcp-Param-*` headers (`@Field({ header })`, `x-mcp-header`). */
  paramHeaders?: readonly ParamHeader[];
  /** `@Tool({ text: 'message' })`: the text block is the result's message, not its JSON. */
  textIsMessage?: boolean;
  /** `@Tool({ task })`, checked: absent for a tool that never runs as a task. */
  task?: CompiledTaskOptions;
  /** `@Tool({ view })`, checked and read: the view a host renders this tool's result in. */
  view?: CompiledToolView;
}

/** A view's content, read and checked once per `defineView` constant. */
export interface ViewContent {
  uri: string;
  definition: ViewDefinition;
  /** The entry advertised in `resources/list`. */
  descriptor: Resource;
  /** What `resources/read` answers: the HTML, its MIME type and `_meta.ui` (CSP, permissions, border). */
  contents: { uri: string; mimeType: string; text: string; _meta?: Record<string, unknown> };
  /** The HTML's size in bytes (UTF-8). */
  bytes: number;
}

/** A tool's link to its view. */
export interface CompiledToolView {
  content: ViewContent;
  visibility?: readonly ViewVisibility[];
}

/** A view served by this server, with the tools that show their results in it. */
export interface CompiledView extends ViewContent {
  tools: CompiledTool[];
}

/** A prompt's or resource template's arguments, compiled once: check, build the DTO, complete. */
export interface CompiledArgs {
  /** Absent for a prompt without arguments. */
  model?: ClassModel;
  validator: SchemaValidator;
  materialize?: Materializer;
  checkRules?: RuleCheck;
  /** Completers by argument name. */
  completers: ReadonlyMap<string, Completer>;
}

export interface CompiledPrompt {
  name: string;
  toolset: CompiledToolset;
  methodName: string;
  /** The entry advertised in `prompts/list`. */
  descriptor: Prompt;
  args: CompiledArgs;
  /** The forms its `context.elicit` may ask for (`@Prompt({ elicits })`). */
  elicitationForms?: ReadonlyMap<ClassType, ElicitationForm>;
}

export interface CompiledResource {
  uri: string;
  toolset: CompiledToolset;
  methodName: string;
  /** The entry advertised in `resources/list`. */
  descriptor: Resource;
}

export interface CompiledResourceTemplate {
  toolset: CompiledToolset;
  methodName: string;
  /** The entry advertised in `resources/templates/list`. */
  descriptor: ResourceTemplate;
  matcher: UriTemplate;
  args: CompiledArgs;
}

export interface CompiledToolset {
  name: string;
  description?: string;
  cls: ClassType;
  credentialHeaders: readonly string[];
  /** `@RequireScopes` on the class: needed for every tool, prompt and resource of it; sorted, once each. */
  requiredScopes: readonly string[];
  /** `@UseInterceptors` on the class: run around every tool of it. */
  interceptors: readonly InterceptorClass[];
  /** Bytes of JSON a tool's `tools/list` entry may take (`@Toolset({ schemaBudget })`). */
  schemaBudget?: number;
  /** `@Toolset({ generatedFrom })`: what its generated code comes from. */
  generatedFrom?: string;
  /** `@Toolset({ checkSettings })`: run when an app starts serving. */
  checkSettings?: (env: NodeJS.ProcessEnv) => void;
  /** The larger groups it belongs to (`@Toolset({ groups })`), by name. */
  parents: readonly string[];
  /** Served through an app's `curate()`: its tools are the app's adaptation, recorded in the app's contract. */
  curated?: true;
  tools: CompiledTool[];
  prompts: CompiledPrompt[];
  resources: CompiledResource[];
  templates: CompiledResourceTemplate[];
}

/** A group of toolsets that is not itself a toolset (`defineGroup`), checked. */
export interface CompiledGroup {
  name: string;
  description: string;
  /** The larger groups it belongs to, by name. */
  parents: readonly string[];
  /** Every toolset in it, directly or through groups it contains, in catalog order. */
  toolsets: readonly string[];
}

/** The gate's product: every toolset, tool, prompt and resource of one server, checked and compiled. */
export interface ToolCatalog {
  toolsets: readonly CompiledToolset[];
  /** The groups of toolsets beside the toolsets themselves (each toolset is a group too). */
  groups: readonly CompiledGroup[];
  tools: ReadonlyMap<string, CompiledTool>;
  prompts: ReadonlyMap<string, CompiledPrompt>;
  /** Fixed resources by URI. */
  resources: ReadonlyMap<string, CompiledResource>;
  templates: readonly CompiledResourceTemplate[];
  /** MCP Apps views (`ui://`) by URI, read by `resources/read` like resources. */
  toolViews: ReadonlyMap<string, CompiledView>;
  /** App-wide interceptors (`buildServer({ interceptors })`), checked: run first around every tool call. */
  interceptors: readonly InterceptorClass[];
}

/** Whether the server answers `resources/*`: it has resources, templates or views. */
export function servesResources(catalog: Pick<ToolCatalog, 'resources' | 'templates' | 'toolViews'>): boolean {
  return catalog.resources.size > 0 || catalog.templates.length > 0 || catalog.toolViews.size > 0;
}
