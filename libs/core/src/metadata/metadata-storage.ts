import { MetadataFormatConflictError } from '../errors/metadata-format-conflict.error';
import type { ClassType } from '../types/class-type';
import type { CompleterMetadata } from './completer-metadata';
import type { FieldMetadata } from './field-metadata';
import type { InterceptorMetadata } from './interceptor-metadata';
import type { PromptMetadata } from './prompt-metadata';
import type { ResourceMetadata } from './resource-metadata';
import type { ResultMetadata } from './result-metadata';
import type { ScopeMetadata } from './scope-metadata';
import type { ToolMetadata } from './tool-metadata';
import type { ToolsetMetadata } from './toolset-metadata';

/**
 * Everything the decorators record, keyed by class. Decorators only write here; the schema builder
 * and the gate read, once, at startup.
 */
export class MetadataStorage {
  private state = emptyState();
  /** Classes core itself decorates (ToolResult, ToolError): every store, isolated or not, keeps them. */
  private readonly framework = new Set<ClassType>();

  /** Marks everything recorded so far as core's own; core's entry point calls it once it has loaded. */
  markFrameworkClasses(): void {
    for (const map of mapsOf(this.state)) for (const cls of map.keys()) this.framework.add(cls);
  }

  /**
   * Starts recording into a store that holds only core's own classes, for a test that declares
   * its classes and builds from them alone; the returned function puts back what was recorded before.
   */
  isolate(): () => void {
    const saved = this.state;
    const fresh = emptyState();
    const kept = mapsOf(fresh);
    mapsOf(saved).forEach((map, i) => {
      for (const [cls, value] of map) if (this.framework.has(cls)) kept[i]!.set(cls, value);
    });
    this.state = fresh;
    return () => void (this.state = saved);
  }

  addField(metadata: FieldMetadata): void {
    const own = this.state.fields.get(metadata.target) ?? [];
    this.state.fields.set(metadata.target, [...own.filter((f) => f.propertyName !== metadata.propertyName), metadata]);
  }

  addResult(metadata: ResultMetadata): void {
    this.state.results.set(metadata.target, metadata);
  }

  addTool(metadata: ToolMetadata): void {
    const own = this.state.tools.get(metadata.target) ?? [];
    this.state.tools.set(metadata.target, [...own, metadata]);
  }

  addPrompt(metadata: PromptMetadata): void {
    this.state.prompts.set(metadata.target, [...(this.state.prompts.get(metadata.target) ?? []), metadata]);
  }

  addResource(metadata: ResourceMetadata): void {
    this.state.resources.set(metadata.target, [...(this.state.resources.get(metadata.target) ?? []), metadata]);
  }

  addCompleter(metadata: CompleterMetadata): void {
    this.state.completers.set(metadata.target, [...(this.state.completers.get(metadata.target) ?? []), metadata]);
  }

  addScopes(metadata: ScopeMetadata): void {
    this.state.scopes.set(metadata.target, [...(this.state.scopes.get(metadata.target) ?? []), metadata]);
  }

  addInterceptors(metadata: InterceptorMetadata): void {
    this.state.interceptors.set(metadata.target, [...(this.state.interceptors.get(metadata.target) ?? []), metadata]);
  }

  addToolset(metadata: ToolsetMetadata): void {
    this.state.toolsets.set(metadata.target, metadata);
  }

  /** A decorator was applied the TC39 standard way, to this member (`@Field city`). */
  addStandardDecoratorUse(member: string): void {
    this.state.standardUses.push(member);
  }

  /** Members decorated the TC39 standard way, in the order met. */
  getStandardDecoratorUses(): readonly string[] {
    return this.state.standardUses;
  }

  /** Fields of `cls` and its ancestors, base class first; a subclass redeclaring a field wins. */
  getFields(cls: ClassType): FieldMetadata[] {
    const byName = new Map<string, FieldMetadata>();
    for (const ancestor of lineage(cls)) {
      for (const field of this.state.fields.get(ancestor) ?? []) {
        byName.delete(field.propertyName);
        byName.set(field.propertyName, field);
      }
    }
    return [...byName.values()];
  }

  getResult(cls: ClassType): ResultMetadata | undefined {
    return this.state.results.get(cls);
  }

  /** Tools of `cls` and its ancestors, so a toolset can extend another. */
  getTools(cls: ClassType): ToolMetadata[] {
    const byMethod = new Map<string, ToolMetadata>();
    for (const tool of lineage(cls).flatMap((ancestor) => this.state.tools.get(ancestor) ?? [])) {
      byMethod.delete(tool.methodName);
      byMethod.set(tool.methodName, tool);
    }
    return [...byMethod.values()];
  }

  /** Prompts of `cls` and its ancestors; a subclass overriding the method wins. */
  getPrompts(cls: ClassType): PromptMetadata[] {
    return byMethod(lineage(cls).flatMap((ancestor) => this.state.prompts.get(ancestor) ?? []));
  }

  /** Resources and resource templates of `cls` and its ancestors. */
  getResources(cls: ClassType): ResourceMetadata[] {
    return byMethod(lineage(cls).flatMap((ancestor) => this.state.resources.get(ancestor) ?? []));
  }

  /** The completer declared on `property` of an args class (or an ancestor's). */
  getCompleter(cls: ClassType, property: string): CompleterMetadata | undefined {
    return lineage(cls)
      .flatMap((ancestor) => this.state.completers.get(ancestor) ?? [])
      .reverse()
      .find((completer) => completer.propertyName === property);
  }

  /**
   * The scopes `@RequireScopes` asks for on `cls` (and its ancestors) as a whole, or, with
   * `methodName`, on that method alone; as written, in the order met.
   */
  getScopes(cls: ClassType, methodName?: string): string[] {
    return lineage(cls)
      .flatMap((ancestor) => this.state.scopes.get(ancestor) ?? [])
      .filter((entry) => entry.methodName === methodName)
      .flatMap((entry) => entry.scopes);
  }

  /**
   * The interceptors `@UseInterceptors` puts on `cls` (and its ancestors, base first) as a whole,
   * or, with `methodName`, on that method alone; in the order they run.
   */
  getInterceptors(cls: ClassType, methodName?: string): unknown[] {
    return lineage(cls)
      .flatMap((ancestor) => this.state.interceptors.get(ancestor) ?? [])
      .filter((entry) => entry.methodName === methodName)
      .flatMap((entry) => entry.interceptors);
  }

  getToolset(cls: ClassType): ToolsetMetadata | undefined {
    return this.state.toolsets.get(cls);
  }
}

/** The last entry per method name, in first-declared order. */
function byMethod<T extends { methodName: string }>(entries: T[]): T[] {
  const map = new Map<string, T>();
  for (const entry of entries) {
    map.delete(entry.methodName);
    map.set(entry.methodName, entry);
  }
  return [...map.values()];
}

/** The class and its ancestors, root first, stopping at `Object`/`Function.prototype`. */
function lineage(cls: ClassType): ClassType[] {
  const chain: ClassType[] = [];
  for (let current: unknown = cls; typeof current === 'function' && current !== Function.prototype; ) {
    chain.unshift(current as ClassType);
    current = Object.getPrototypeOf(current);
  }
  return chain;
}

function emptyState() {
  return {
    fields: new Map<ClassType, FieldMetadata[]>(),
    results: new Map<ClassType, ResultMetadata>(),
    tools: new Map<ClassType, ToolMetadata[]>(),
    toolsets: new Map<ClassType, ToolsetMetadata>(),
    prompts: new Map<ClassType, PromptMetadata[]>(),
    resources: new Map<ClassType, ResourceMetadata[]>(),
    completers: new Map<ClassType, CompleterMetadata[]>(),
    scopes: new Map<ClassType, ScopeMetadata[]>(),
    interceptors: new Map<ClassType, InterceptorMetadata[]>(),
    standardUses: [] as string[],
  };
}

type State = ReturnType<typeof emptyState>;

function mapsOf(state: State): Map<ClassType, unknown>[] {
  return [state.fields, state.results, state.tools, state.toolsets, state.prompts, state.resources, state.completers, state.scopes, state.interceptors];
}

/** Bump when what the store records changes shape: copies of core that record another shape cannot share it. */
export const METADATA_FORMAT = 3;
const STORE_KEY = Symbol.for('@toolsets/core:metadata-storage');

interface SharedStore {
  format: number;
  storage: MetadataStorage;
}

/**
 * One store per process, on `globalThis`: two copies of core (an app's and a toolset library's)
 * must see each other's decorators, or a toolset would look undecorated to the gate.
 */
function sharedStorage(): MetadataStorage {
  const global = globalThis as { [STORE_KEY]?: SharedStore };
  const existing = global[STORE_KEY];
  if (existing) {
    if (existing.format !== METADATA_FORMAT) throw new MetadataFormatConflictError(existing.format, METADATA_FORMAT);
    return existing.storage;
  }
  const storage = new MetadataStorage();
  global[STORE_KEY] = { format: METADATA_FORMAT, storage };
  return storage;
}

export const metadataStorage = sharedStorage();
