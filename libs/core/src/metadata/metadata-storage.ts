import type { ClassType } from '../types/class-type';
import type { CompleterMetadata } from './completer-metadata';
import type { FieldMetadata } from './field-metadata';
import type { PromptMetadata } from './prompt-metadata';
import type { ResourceMetadata } from './resource-metadata';
import type { ResultMetadata } from './result-metadata';
import type { ToolMetadata } from './tool-metadata';
import type { ToolsetMetadata } from './toolset-metadata';

/**
 * Everything the decorators record, keyed by class. Decorators only write here; the schema builder
 * and the gate read, once, at startup.
 */
export class MetadataStorage {
  private readonly fields = new Map<ClassType, FieldMetadata[]>();
  private readonly results = new Map<ClassType, ResultMetadata>();
  private readonly tools = new Map<ClassType, ToolMetadata[]>();
  private readonly toolsets = new Map<ClassType, ToolsetMetadata>();
  private readonly prompts = new Map<ClassType, PromptMetadata[]>();
  private readonly resources = new Map<ClassType, ResourceMetadata[]>();
  private readonly completers = new Map<ClassType, CompleterMetadata[]>();
  private readonly standardUses: string[] = [];

  addField(metadata: FieldMetadata): void {
    const own = this.fields.get(metadata.target) ?? [];
    this.fields.set(metadata.target, [...own.filter((f) => f.propertyName !== metadata.propertyName), metadata]);
  }

  addResult(metadata: ResultMetadata): void {
    this.results.set(metadata.target, metadata);
  }

  addTool(metadata: ToolMetadata): void {
    const own = this.tools.get(metadata.target) ?? [];
    this.tools.set(metadata.target, [...own, metadata]);
  }

  addPrompt(metadata: PromptMetadata): void {
    this.prompts.set(metadata.target, [...(this.prompts.get(metadata.target) ?? []), metadata]);
  }

  addResource(metadata: ResourceMetadata): void {
    this.resources.set(metadata.target, [...(this.resources.get(metadata.target) ?? []), metadata]);
  }

  addCompleter(metadata: CompleterMetadata): void {
    this.completers.set(metadata.target, [...(this.completers.get(metadata.target) ?? []), metadata]);
  }

  addToolset(metadata: ToolsetMetadata): void {
    this.toolsets.set(metadata.target, metadata);
  }

  /** A decorator was applied the TC39 standard way, to this member (`@Field city`). */
  addStandardDecoratorUse(member: string): void {
    this.standardUses.push(member);
  }

  /** Members decorated the TC39 standard way, in the order met. */
  getStandardDecoratorUses(): readonly string[] {
    return this.standardUses;
  }

  /** Fields of `cls` and its ancestors, base class first; a subclass redeclaring a field wins. */
  getFields(cls: ClassType): FieldMetadata[] {
    const byName = new Map<string, FieldMetadata>();
    for (const ancestor of lineage(cls)) {
      for (const field of this.fields.get(ancestor) ?? []) {
        byName.delete(field.propertyName);
        byName.set(field.propertyName, field);
      }
    }
    return [...byName.values()];
  }

  getResult(cls: ClassType): ResultMetadata | undefined {
    return this.results.get(cls);
  }

  /** Tools of `cls` and its ancestors, so a toolset can extend another. */
  getTools(cls: ClassType): ToolMetadata[] {
    const byMethod = new Map<string, ToolMetadata>();
    for (const tool of lineage(cls).flatMap((ancestor) => this.tools.get(ancestor) ?? [])) {
      byMethod.delete(tool.methodName);
      byMethod.set(tool.methodName, tool);
    }
    return [...byMethod.values()];
  }

  /** Prompts of `cls` and its ancestors; a subclass overriding the method wins. */
  getPrompts(cls: ClassType): PromptMetadata[] {
    return byMethod(lineage(cls).flatMap((ancestor) => this.prompts.get(ancestor) ?? []));
  }

  /** Resources and resource templates of `cls` and its ancestors. */
  getResources(cls: ClassType): ResourceMetadata[] {
    return byMethod(lineage(cls).flatMap((ancestor) => this.resources.get(ancestor) ?? []));
  }

  /** The completer declared on `property` of an args class (or an ancestor's). */
  getCompleter(cls: ClassType, property: string): CompleterMetadata | undefined {
    return lineage(cls)
      .flatMap((ancestor) => this.completers.get(ancestor) ?? [])
      .reverse()
      .find((completer) => completer.propertyName === property);
  }

  getToolset(cls: ClassType): ToolsetMetadata | undefined {
    return this.toolsets.get(cls);
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

export const metadataStorage = new MetadataStorage();
