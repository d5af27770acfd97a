import type { ClassType } from '../types/class-type';
import type { FieldMetadata } from './field-metadata';
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

  getToolset(cls: ClassType): ToolsetMetadata | undefined {
    return this.toolsets.get(cls);
  }
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
