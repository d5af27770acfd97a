import { metadataStorage } from '../metadata/metadata-storage';
import type { ClassType } from '../types/class-type';
import type { InterceptorClass } from '../metadata/tool-interceptor';
import { isStandardDecoratorContext } from './standard-decorator-context';

/**
 * Runs interceptor classes around every call of the tools this decorates: all the tools of a
 * toolset class, or one tool. They run app first (`buildServer({ interceptors })`), then the
 * toolset's, then the tool's, each in the order written; each is resolved from the call's own
 * container, so its constructor can inject services and `RequestContext`.
 */
export function UseInterceptors(...interceptors: InterceptorClass[]): ClassDecorator & MethodDecorator {
  return ((target: object, propertyKey?: string | symbol | object) => {
    if (isStandardDecoratorContext(propertyKey)) return metadataStorage.addStandardDecoratorUse(`@UseInterceptors ${String(propertyKey.name)}`);
    if (propertyKey === undefined) return metadataStorage.addInterceptors({ target: target as ClassType, interceptors });
    metadataStorage.addInterceptors({ target: (target as object).constructor as ClassType, methodName: String(propertyKey), interceptors });
  }) as ClassDecorator & MethodDecorator;
}
