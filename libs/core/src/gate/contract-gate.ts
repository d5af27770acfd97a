import type { ToolsetOptions } from '../metadata/toolset-metadata';
import type { ClassType } from '../types/class-type';
import { metadataStorage } from '../metadata/metadata-storage';
import type { ToolMetadata } from '../metadata/tool-metadata';
import { ContractError } from '../errors/contract-error';
import type { ContractViolation } from '../errors/contract-violation';
import { DuplicateToolNameError } from '../errors/duplicate-tool-name.error';
import { EmptyToolsetError } from '../errors/empty-toolset.error';
import { NotAToolsetError } from '../errors/not-a-toolset.error';
import { StandardDecoratorsError } from '../errors/standard-decorators.error';
import { toolsetNameOf } from '../helpers/naming';
import { ClassModelBuilder } from '../schema/class-model-builder';
import { checkValidationShortcut } from '../schema/validation-shortcut-check';
import { DuplicateMemberError } from '../errors/duplicate-member.error';
import { MemberInspector } from './member-inspector';
import { ToolInspector } from './tool-inspector';
import { ViewInspector } from './view-check';
import { collectViews } from './view-collection';
import type { CompiledPrompt, CompiledResource, CompiledResourceTemplate, CompiledTool, CompiledToolset, ToolCatalog } from '../compiled/tool-catalog';
import { MisplacedScopesError } from '../errors/misplaced-scopes.error';
import { checkedInterceptors, checkRefusals } from './interceptor-check';
import { InvalidInterceptorError } from '../errors/invalid-interceptor.error';
import { CuratedToolset } from '../metadata/toolset-curation';
import { applyCuration } from './curation';
import { compileGroups, groupNames } from './group-check';

/** What the gate checks beyond the toolsets themselves. */
export interface GateOptions {
  /** App-wide interceptors (`buildServer({ interceptors })`): checked, and run before every tool's own. */
  interceptors?: readonly unknown[];
}

/**
 * The startup gate: checks every toolset against the contract and compiles what each call needs.
 * Throws one `ContractError` listing every violation found.
 */
export function runContractGate(serverName: string, toolsetClasses: readonly (ClassType | CuratedToolset)[], options: GateOptions = {}): ToolCatalog {
  const gate = new ContractGate();
  const toolsets = toolsetClasses.map((served) => gate.inspectServed(served)).filter((t): t is CompiledToolset => !!t);
  const report = (violation: ContractViolation) => gate.violations.push(violation);
  const appInterceptors = checkedInterceptors(options.interceptors ?? [], {}, `buildServer '${serverName}' (interceptors)`, report);
  gate.reportStandardDecorators();
  const tools = new Map<string, CompiledTool>();
  const origin = (t: CompiledTool) => ({ toolset: t.toolset.name, className: t.toolset.cls.name, methodName: t.methodName, ...(t.toolset.generatedFrom !== undefined && { generatedFrom: t.toolset.generatedFrom }) });
  const prompts = new Map<string, CompiledPrompt>();
  const resources = new Map<string, CompiledResource>();
  const templates = new Map<string, CompiledResourceTemplate>();
  const where = (member: { toolset: CompiledToolset; methodName: string }) => `${member.toolset.cls.name}.${member.methodName}() (toolset '${member.toolset.name}')`;
  const { violations } = gate;
  for (const toolset of toolsets) {
    for (const tool of toolset.tools) {
      addUnique(tools, tool.name, tool, violations, (existing) => new DuplicateToolNameError(tool.name, origin(existing), origin(tool)));
      checkRefusals([...appInterceptors, ...tool.interceptors], { name: tool.name, toolset: toolset.name, annotations: tool.descriptor.annotations ?? {} }, report);
    }
    for (const prompt of toolset.prompts) addUnique(prompts, prompt.name, prompt, violations, (existing) => new DuplicateMemberError('prompt', prompt.name, where(existing), where(prompt)));
    for (const resource of toolset.resources) addUnique(resources, resource.uri, resource, violations, (existing) => new DuplicateMemberError('resource', resource.uri, where(existing), where(resource)));
    for (const template of toolset.templates) {
      const uri = template.descriptor.uriTemplate;
      addUnique(templates, uri, template, violations, (existing) => new DuplicateMemberError('resource', uri, where(existing), where(template)));
    }
  }
  const toolViews = collectViews(tools.values(), report);
  const groups = compileGroups(toolsets, gate.declaredGroups, report);
  if (violations.length > 0) throw new ContractError(serverName, violations);
  checkValidationShortcut(gate.dtoClasses);
  return { toolsets, groups, tools, prompts, resources, templates: [...templates.values()], toolViews, interceptors: appInterceptors };
}

class ContractGate {
  /** Shared with the model builder, so violations stay in the order they were found. */
  readonly violations: ContractViolation[] = [];
  /** The groups each toolset says it belongs to, as declared (checked by compileGroups). */
  readonly declaredGroups = new Map<string, readonly unknown[]>();
  private readonly models = new ClassModelBuilder(this.violations);
  private readonly members = new MemberInspector(this.violations, this.models);
  private readonly tools = new ToolInspector(this.violations, this.models, new ViewInspector(this.violations));
  private standardReported = false;

  get dtoClasses(): ClassType[] {
    return this.models.classes;
  }

  /** Members decorated the standard way whose toolset was not (mixed builds): one line for all. */
  reportStandardDecorators(): void {
    const uses = metadataStorage.getStandardDecoratorUses();
    if (uses.length > 0 && !this.standardReported) this.report(new StandardDecoratorsError('Some DTO or toolset code', uses));
  }

  /** A toolset class, or one an app curates: compiled as the library wrote it, then curated. */
  inspectServed(served: ClassType | CuratedToolset): CompiledToolset | undefined {
    if (!(served instanceof CuratedToolset)) return this.inspectToolset(served);
    const toolset = this.inspectToolset(served.cls);
    return toolset && applyCuration(toolset, served.curation, (violation) => this.report(violation));
  }

  inspectToolset(cls: ClassType): CompiledToolset | undefined {
    const metadata = metadataStorage.getToolset(cls);
    if (!metadata) {
      this.report(new NotAToolsetError(cls.name));
      return undefined;
    }
    const name = metadata.options.name ?? toolsetNameOf(cls.name);
    if (metadata.standardDecorators) {
      this.standardReported = true;
      this.report(new StandardDecoratorsError(`The toolset '${name}' (class ${cls.name})`, metadataStorage.getStandardDecoratorUses()));
      return undefined;
    }
    const toolset: CompiledToolset = {
      name,
      description: metadata.options.description,
      cls,
      credentialHeaders: (metadata.options.credentialHeaders ?? []).map((h) => h.toLowerCase()),
      requiredScopes: this.tools.checkedScopes({ toolset: name }, `the class ${cls.name}`, metadataStorage.getScopes(cls)),
      interceptors: this.tools.interceptorsOf({ toolset: name }, `@UseInterceptors on the class ${cls.name}`, cls),
      ...optionalSettings(metadata.options),
      parents: this.declareGroups(name, metadata.options.groups),
      tools: [],
      prompts: [],
      resources: [],
      templates: [],
    };
    const tools = metadataStorage.getTools(cls);
    if (tools.length === 0 && metadataStorage.getPrompts(cls).length === 0 && metadataStorage.getResources(cls).length === 0) {
      this.report(new EmptyToolsetError(name, cls.name));
    }
    for (const tool of tools) {
      const compiled = this.tools.inspectTool(toolset, tool);
      if (compiled) toolset.tools.push(compiled);
    }
    this.members.inspectPrompts(toolset);
    this.members.inspectResources(toolset);
    // Both decorators act on tool calls only: on a prompt or resource method they would do nothing.
    for (const method of this.nonToolMembers(toolset, tools)) {
      const site = { toolset: toolset.name };
      if (metadataStorage.getScopes(toolset.cls, method).length > 0) this.report(new MisplacedScopesError(site, toolset.cls.name, method));
      if (metadataStorage.getInterceptors(toolset.cls, method).length > 0) this.report(InvalidInterceptorError.misplaced(site, toolset.cls.name, method));
    }
    return toolset;
  }

  /** Records the groups a toolset joins; their names are its parents (checked once all toolsets are in). */
  private declareGroups(toolset: string, groups: unknown): string[] {
    const list = Array.isArray(groups) ? groups : groups === undefined ? [] : [groups];
    this.declaredGroups.set(toolset, list);
    return groupNames(list);
  }

  /** The prompt and resource methods of `toolset` that are not also tools. */
  private nonToolMembers(toolset: CompiledToolset, tools: readonly ToolMetadata[]): string[] {
    const toolMethods = new Set(tools.map((tool) => tool.methodName));
    return [...toolset.prompts, ...toolset.resources, ...toolset.templates].map((member) => member.methodName).filter((method) => !toolMethods.has(method));
  }

  private report(violation: ContractViolation): void {
    this.violations.push(violation);
  }
}

/** Keeps the first member under each key; a second one under the same key is a violation. */
function addUnique<T>(members: Map<string, T>, key: string, member: T, violations: ContractViolation[], duplicate: (existing: T) => ContractViolation): void {
  const existing = members.get(key);
  if (existing) violations.push(duplicate(existing));
  else members.set(key, member);
}

/** The toolset's optional settings that the catalog carries as they were given. */
function optionalSettings(options: ToolsetOptions): Pick<CompiledToolset, 'schemaBudget' | 'generatedFrom' | 'checkSettings'> {
  return {
    ...(options.schemaBudget !== undefined && { schemaBudget: options.schemaBudget }),
    ...(typeof options.generatedFrom === 'string' && { generatedFrom: options.generatedFrom }),
    ...(options.checkSettings && { checkSettings: options.checkSettings }),
  };
}
