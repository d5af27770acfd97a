import 'reflect-metadata';
import { Tool, ToolError, ToolResult, Toolset, runContractGate, type ClassType, type ToolAnnotations, type ToolTaskDeclaration, type ToolViewDeclaration } from '@toolsets/core';
import { snapshotEntries } from '../../src/contract/catalog-entries';
import type { ToolEntry } from '../../src/contract/snapshot';

export interface LookupSpec {
  args?: ClassType;
  returns: ClassType;
  /** Adds the ToolError arm: `returns: [returns, ToolError]`. */
  canFail?: boolean;
  name?: string;
  /** `@Tool({ origin })`; by default every spec's is `LookupToolset.lookup`. */
  origin?: string;
  title?: string;
  description?: string;
  annotations?: ToolAnnotations;
  task?: ToolTaskDeclaration;
  view?: ToolViewDeclaration;
}

let toolsets = 0;

/** The tools/list entries as the snapshot records them (built by the real gate), of a toolset with one tool (`lookup` by default). */
export function catalogOf(...specs: LookupSpec[]): ToolEntry[] {
  const classes = specs.map((spec) => {
    @Toolset({ name: `contract_${++toolsets}` })
    class LookupToolset {
      @Tool({
        name: spec.name,
        origin: spec.origin,
        title: spec.title,
        description: spec.description ?? 'Look something up by its id.',
        args: spec.args,
        returns: (spec.canFail ? [spec.returns, ToolError] : spec.returns) as ClassType<ToolResult>,
        annotations: spec.annotations,
        task: spec.task,
        view: spec.view,
      })
      lookup(): never {
        throw new Error('not called');
      }
    }
    return LookupToolset;
  });
  const catalog = runContractGate('contract-test', classes);
  return snapshotEntries(catalog);
}

type PropertyDecorators = readonly PropertyDecorator[];

/**
 * A DTO class named `name` with the given properties, each with its decorators, as if written
 * `@Field() @IsOptional() note?: string`. Before/after pairs share the name, so the only
 * differences are the ones a test makes.
 */
export function dto<B extends ClassType>(name: string, fields: Record<string, PropertyDecorators>, base?: B, classDecorators: readonly ClassDecorator[] = []): ClassType {
  const parent = (base ?? Object) as new () => object;
  const cls = { [name]: class extends parent {} }[name];
  for (const [property, decorators] of Object.entries(fields)) for (const decorate of decorators) decorate(cls.prototype, property);
  for (const decorate of classDecorators) decorate(cls);
  return cls as ClassType;
}
