import type { ClassType } from '../types/class-type';
import type { ToolArgs } from '../types/tool-returns';
import type { ResourceBody } from '../wire/resource-body';
import { metadataStorage } from '../metadata/metadata-storage';
import { isStandardDecoratorContext } from './standard-decorator-context';

interface ResourceDescription {
  /** Defaults to the method name in snake_case. */
  name?: string;
  title?: string;
  /** What the resource holds; required, since clients and models choose resources by it. */
  description: string;
  mimeType?: string;
}

export interface ResourceOptions extends ResourceDescription {
  /** The resource's URI, with a scheme: `docs://readme`, `file:///etc/motd`. */
  uri: string;
}

export interface ResourceTemplateOptions<A extends ClassType | undefined> extends ResourceDescription {
  /** An RFC 6570 URI template whose variables are the fields of `args`: `users://{id}/profile`. */
  uriTemplate: string;
  /** The DTO the URI's variables fill (string fields), validated on every read. */
  args?: A;
}

export type ResourceMethod = () => ResourceBody | Promise<ResourceBody>;
export type ResourceTemplateMethod<A extends ClassType | undefined> = (args: ToolArgs<A>) => ResourceBody | Promise<ResourceBody>;

/** Declares a resource at a fixed URI, served by `resources/list` and `resources/read`. */
export function Resource(options: ResourceOptions): <M extends ResourceMethod>(target: object, propertyKey: string | symbol, descriptor: TypedPropertyDescriptor<M>) => void {
  return (target, propertyKey) => {
    if (isStandardDecoratorContext(propertyKey)) return metadataStorage.addStandardDecoratorUse(`@Resource ${String(propertyKey.name)}`);
    metadataStorage.addResource({ target: target.constructor as ClassType, methodName: String(propertyKey), kind: 'resource', options });
  };
}

/** Declares resources whose URIs match a template, served by `resources/templates/list` and `resources/read`. */
export function ResourceTemplate<A extends ClassType | undefined = undefined>(
  options: ResourceTemplateOptions<A>,
): <M extends ResourceTemplateMethod<A>>(target: object, propertyKey: string | symbol, descriptor: TypedPropertyDescriptor<M>) => void {
  return (target, propertyKey) => {
    if (isStandardDecoratorContext(propertyKey)) return metadataStorage.addStandardDecoratorUse(`@ResourceTemplate ${String(propertyKey.name)}`);
    metadataStorage.addResource({ target: target.constructor as ClassType, methodName: String(propertyKey), kind: 'template', options });
  };
}
