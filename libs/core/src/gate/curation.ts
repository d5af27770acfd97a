import type { CompiledTool, CompiledToolset } from '../compiled/tool-catalog';
import type { Materializer } from '../compiled/args-materializer';
import { lazyValidator } from '../compiled/lazy-validator';
import type { ContractViolation } from '../errors/contract-violation';
import { InvalidCurationError } from '../errors/invalid-curation.error';
import { TOOL_NAME_PATTERN } from '../helpers/naming';
import type { ArgumentCuration, ToolCuration, ToolsetCuration } from '../metadata/toolset-curation';
import { argumentEntryProblems, omitsRequired, renameProblems, type CuratedArgumentFacts } from '../metadata/argument-curation-rules';
import type { SchemaNode } from '../types/schema-node';

type JsonSchema = Record<string, unknown> & { properties?: Record<string, Record<string, unknown>>; required?: string[]; $defs?: unknown };

/** A curation's report: where it is, and what to say. */
interface CurationSite {
  toolset: CompiledToolset;
  report: (violation: ContractViolation) => void;
}

/**
 * The toolset as an app serves it through `curate()`: a new compiled toolset (the library's own
 * stays as it was, so two apps can curate one library differently) whose tools are renamed,
 * hidden, re-described and take curated arguments. Each curated tool validates what the caller
 * sends against its curated schema, then hands the method the arguments it was written for.
 */
export function applyCuration(toolset: CompiledToolset, curation: ToolsetCuration<unknown>, report: (violation: ContractViolation) => void): CompiledToolset {
  const site: CurationSite = { toolset, report };
  const methods = new Map(toolset.tools.map((tool) => [tool.methodName, tool]));
  const named = (method: string, setting: string) => {
    if (methods.has(method)) return true;
    // Keyed by the tool's name (or, in a generated library, by a name the config gave it): say which method that is.
    const byToolName = toolset.tools.find((tool) => tool.name === method);
    const hint = byToolName ? ` '${method}' is the tool name of ${byToolName.methodName}(): curate() keys tools by method.` : '';
    fail(site, undefined, `${setting} names '${method}', which is not a tool method of ${toolset.cls.name}.${hint}`, `name one of its tool methods: ${[...methods.keys()].join(', ') || 'none'}.`);
    return false;
  };
  const hidden = new Set(((curation.hide ?? []) as readonly string[]).filter((method) => named(method, 'hide')));
  const entries = Object.entries((curation.tools ?? {}) as Record<string, ToolCuration<Record<string, unknown>> | undefined>).filter(([method]) => named(method, 'tools'));
  const prefix = curation.prefix ?? '';
  const curated: CompiledToolset = { ...toolset, curated: true, tools: [] };
  for (const [method] of entries.filter(([method]) => hidden.has(method))) {
    fail(site, methods.get(method), `tools.${method} curates a tool that hide leaves out.`, `remove '${method}' from hide or its entry from tools.`);
  }
  for (const tool of toolset.tools) {
    if (hidden.has(tool.methodName)) continue;
    const entry = entries.find(([method]) => method === tool.methodName)?.[1];
    curated.tools.push(curateTool(site, tool, entry, prefix, curated));
  }
  if (toolset.tools.length > 0 && curated.tools.length === 0) {
    fail(site, undefined, 'hide leaves no tool of the toolset to serve.', `leave ${toolset.cls.name} out of the server's toolsets instead.`);
  }
  return curated;
}

function curateTool(site: CurationSite, tool: CompiledTool, entry: ToolCuration<Record<string, unknown>> | undefined, prefix: string, toolset: CompiledToolset): CompiledTool {
  const name = `${prefix}${entry?.name ?? tool.name}`;
  checkTexts(site, tool, entry, name);
  const args = curatedArguments(site, tool, (entry?.arguments ?? {}) as Record<string, ArgumentCuration>);
  const descriptor = {
    ...tool.descriptor,
    name,
    ...(entry?.title && { title: entry.title }),
    ...(entry?.description && { description: entry.description }),
    ...(entry?.annotations && { annotations: { ...tool.descriptor.annotations, ...entry.annotations } }),
    ...(args && { inputSchema: args.schema as typeof tool.descriptor.inputSchema }),
  };
  if (!args) return { ...tool, name, toolset, descriptor };
  return {
    ...tool,
    name,
    toolset,
    descriptor,
    inputSchema: args.schema as SchemaNode,
    inputValidator: lazyValidator(args.schema as SchemaNode),
    ...(tool.materialize && { materialize: restoring(tool.materialize, args.restore) }),
    ...(tool.paramHeaders && { paramHeaders: args.headers(tool.paramHeaders) }),
  };
}

/** The tool's materializer, fed the arguments its method was written for. */
function restoring(materialize: Materializer, restore: CuratedArguments['restore']): Materializer {
  const curated = (input: Record<string, unknown>) => materialize(restore(input));
  return Object.defineProperty(curated, 'path', { get: () => materialize.path, enumerable: true }) as Materializer;
}

function checkTexts(site: CurationSite, tool: CompiledTool, entry: ToolCuration<Record<string, unknown>> | undefined, name: string): void {
  if (!TOOL_NAME_PATTERN.test(name)) fail(site, tool, `the tool name ${JSON.stringify(name)} is rejected by MCP clients; names are 1 to 128 characters of A-Z a-z 0-9 _ - .`, 'give a prefix and names of those characters.');
  for (const text of ['title', 'description'] as const) {
    const value = entry?.[text];
    if (value !== undefined && (typeof value !== 'string' || value.trim() === '')) fail(site, tool, `${text} is empty.`, `give the tool a ${text} a model can read, or leave ${text} out.`);
  }
}

interface CuratedArguments {
  schema: JsonSchema;
  /** The arguments the method was written for, from those the caller sent. */
  restore: (input: Record<string, unknown>) => Record<string, unknown>;
  headers: (headers: NonNullable<CompiledTool['paramHeaders']>) => NonNullable<CompiledTool['paramHeaders']>;
}

/** What the curation of one tool's arguments gathers: the values it fills in and the names it maps back. */
interface ArgumentPlan {
  properties: Record<string, Record<string, unknown>>;
  required: Set<string>;
  constants: Record<string, unknown>;
  defaults: Record<string, unknown>;
  renames: Map<string, string>;
}

function curatedArguments(site: CurationSite, tool: CompiledTool, entries: Record<string, ArgumentCuration>): CuratedArguments | undefined {
  if (Object.keys(entries).length === 0) return undefined;
  const original = tool.inputSchema as unknown as JsonSchema;
  const schema = structuredClone(original);
  const plan: ArgumentPlan = { properties: schema.properties ?? {}, required: new Set(schema.required ?? []), constants: {}, defaults: {}, renames: new Map() };
  for (const [arg, entry] of Object.entries(entries)) curateArgument(site, tool, original, plan, arg, entry);
  const { properties, required, constants, defaults, renames } = plan;
  for (const { argument, problem } of renameProblems(entries, Object.keys(original.properties ?? {}))) fail(site, tool, `name for '${argument}': ${problem.problem}.`, problem.fix, argument);
  const back = new Map([...renames].map(([from, to]) => [to, from]));
  schema.properties = Object.fromEntries(Object.entries(properties).map(([key, value]) => [renames.get(key) ?? key, value]));
  const requiredNames = [...required].map((key) => renames.get(key) ?? key);
  if (requiredNames.length > 0) schema.required = requiredNames;
  else delete schema.required;
  return {
    schema,
    restore: (input) => {
      const out: Record<string, unknown> = { ...constants };
      for (const [key, value] of Object.entries(input)) out[back.get(key) ?? key] = value;
      for (const [key, value] of Object.entries(defaults)) if (out[key] === undefined) out[key] = value;
      return out;
    },
    // An argument hidden (behind a value, or omitted) is mirrored into no header.
    headers: (headers) => headers.filter((header) => header.path[0]! in properties).map((header) => (renames.has(header.path[0]!) ? { ...header, path: [renames.get(header.path[0]!)!, ...header.path.slice(1)] } : header)),
  };
}

function curateArgument(site: CurationSite, tool: CompiledTool, original: JsonSchema, plan: ArgumentPlan, arg: string, entry: ArgumentCuration): void {
  const property = plan.properties[arg];
  const refuse = (problem: string, fix: string) => fail(site, tool, problem, fix, arg);
  if (!property) {
    fail(site, tool, `arguments names '${arg}', which is not an argument of the tool.`, `name one of its arguments: ${Object.keys(original.properties ?? {}).join(', ') || 'none'}.`);
    return;
  }
  const problems = argumentEntryProblems(entry, factsOf(property));
  for (const { setting, problem, fix } of problems) refuse(`${setting ? `${setting} for '${arg}': ` : `'${arg}': `}${problem}.`, fix);
  if (problems.length > 0) return;
  const fits = fitsCheck(original, arg, property);
  if (hidden(plan, arg, entry, fits, refuse)) return;
  narrowArgument(arg, property, entry, fits, refuse);
  checkGiven(arg, entry, fitsCheck(original, arg, property), refuse);
  if (entry.default !== undefined) {
    property['default'] = entry.default;
    plan.defaults[arg] = entry.default;
    plan.required.delete(arg);
  }
  if (entry.examples !== undefined) property['examples'] = [...entry.examples];
  if (entry.description !== undefined) property['description'] = entry.description;
  if (entry.name !== undefined && entry.name !== arg) plan.renames.set(arg, entry.name);
}

/**
 * An argument the entry hides from the caller: behind a value always sent (`value`), or with nothing
 * sent (`omit`, for an optional one). True when the entry hid it.
 */
function hidden(plan: ArgumentPlan, arg: string, entry: ArgumentCuration, fits: (value: unknown) => boolean, refuse: (problem: string, fix: string) => void): boolean {
  const required = omitsRequired(entry, plan.required.has(arg));
  if (required) refuse(`omit for '${arg}': ${required.problem}.`, required.fix);
  if (entry.omit !== true && entry.value === undefined) return false;
  if (entry.value !== undefined) {
    if (!fits(entry.value)) refuse(`the value ${JSON.stringify(entry.value)} for '${arg}' is refused by the argument's schema.`, 'give a value the argument allows.');
    plan.constants[arg] = entry.value;
  }
  delete plan.properties[arg];
  plan.required.delete(arg);
  return true;
}

/** The default and examples, each against the argument as narrowed. */
function checkGiven(arg: string, entry: ArgumentCuration, fits: (value: unknown) => boolean, refuse: (problem: string, fix: string) => void): void {
  const given: [string, unknown][] = [...(entry.default === undefined ? [] : [['default', entry.default] as [string, unknown]]), ...(entry.examples ?? []).map((example) => ['example', example] as [string, unknown])];
  for (const [setting, value] of given) if (!fits(value)) refuse(`the ${setting} ${JSON.stringify(value)} for '${arg}' is refused by the argument's schema.`, 'give a value the (narrowed) argument allows.');
}

/** Writes the entry's enum, pattern and bounds into the argument's schema (the rules checked them; the enum's values are checked here). */
function narrowArgument(arg: string, property: Record<string, unknown>, entry: ArgumentCuration, fits: (value: unknown) => boolean, refuse: (problem: string, fix: string) => void): void {
  if (entry.enum !== undefined) {
    const refused = entry.enum.filter((value) => !fits(value));
    if (refused.length > 0) refuse(`the enum for '${arg}' has ${refused.map((value) => JSON.stringify(value)).join(', ')}, which the argument refuses.`, 'list values the argument allows: an enum only narrows it.');
    property['enum'] = [...entry.enum];
  }
  for (const key of ['pattern', 'minimum', 'maximum', 'minLength', 'maxLength'] as const) if (entry[key] !== undefined) property[key] = entry[key];
}

/** What the shared curation rules read of an argument's JSON Schema. */
function factsOf(property: Record<string, unknown>): CuratedArgumentFacts {
  const number = (key: string) => (typeof property[key] === 'number' ? (property[key] as number) : undefined);
  const types = ([] as unknown[]).concat(property['type'] ?? []).filter((type): type is string => typeof type === 'string');
  return {
    types,
    enumerated: Array.isArray(property['enum']) || property['const'] !== undefined || (Array.isArray(property['anyOf']) && (property['anyOf'] as Record<string, unknown>[]).every((arm) => arm['const'] !== undefined || arm['type'] === 'null')),
    ...(typeof property['pattern'] === 'string' && { pattern: property['pattern'] }),
    ...Object.fromEntries((['minimum', 'maximum', 'minLength', 'maxLength'] as const).flatMap((key) => (number(key) === undefined ? [] : [[key, number(key)]]))),
    owner: "the toolset's",
  };
}

/** Whether a value fits one argument's schema, resolved against the whole input schema's definitions. */
function fitsCheck(root: JsonSchema, arg: string, property: Record<string, unknown>): (value: unknown) => boolean {
  const validator = lazyValidator(() => ({ type: 'object', properties: { [arg]: structuredClone(property) }, ...(root.$defs !== undefined && { $defs: root.$defs }) }) as unknown as SchemaNode);
  return (value) => validator.Check({ [arg]: value });
}

function fail(site: CurationSite, tool: CompiledTool | undefined, problem: string, fix: string, arg?: string): void {
  const where = `${site.toolset.cls.name}, …`;
  const at = tool ? `tools.${tool.methodName}${arg ? `.arguments.${arg}` : ''}: ` : '';
  site.report(new InvalidCurationError({ toolset: site.toolset.name, ...(tool && { tool: tool.name }), ...(arg && { path: `${arg}` }) }, where, `${at}${problem}`, fix));
}
