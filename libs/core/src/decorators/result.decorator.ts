import type { ClassType } from '../types/class-type';
import { metadataStorage } from '../metadata/metadata-storage';
import type { ResultOptions } from '../metadata/result-metadata';
import { isStandardDecoratorContext } from './standard-decorator-context';

/** Describes a result DTO; its class name becomes the output schema's `title`. */
export function Result(options: ResultOptions = {}): ClassDecorator {
  return ((target: ClassType, context?: unknown) => {
    if (isStandardDecoratorContext(context)) return metadataStorage.addStandardDecoratorUse(`@Result ${target.name}`);
    metadataStorage.addResult({ target: target as unknown as ClassType, options });
  }) as ClassDecorator;
}
