import { injectable } from 'tsyringe';
import type { ClassType } from '../types/class-type';
import { metadataStorage } from '../metadata/metadata-storage';
import type { ToolsetOptions } from '../metadata/toolset-metadata';
import { isStandardDecoratorContext } from './standard-decorator-context';

/** Marks a class as a toolset; it is resolved through tsyringe, so its constructor can inject services. */
export function Toolset(options: ToolsetOptions = {}): ClassDecorator {
  return ((target: ClassType, context?: unknown) => {
    if (isStandardDecoratorContext(context)) return metadataStorage.addToolset({ target, options, standardDecorators: true });
    metadataStorage.addToolset({ target: target as unknown as ClassType, options });
    // Records constructor parameter types for tsyringe; it throws nothing and builds nothing.
    injectable()(target as unknown as new (...args: never[]) => unknown);
  }) as ClassDecorator;
}
