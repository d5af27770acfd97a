import { metadataStorage } from '../metadata/metadata-storage';
import type { ClassType } from '../types/class-type';
import { isStandardDecoratorContext } from './standard-decorator-context';

/**
 * The OAuth scopes a caller's access token must hold to see and call what this decorates: every
 * tool, prompt and resource of a toolset class, or one tool. On a toolset and a tool, both apply.
 * Over HTTP with token verification on (`AUTH_ISSUER`), a call without them is answered
 * `403 insufficient_scope` naming every scope it needs, and `tools/list` leaves the tool out;
 * over stdio, and over HTTP without verification, scopes are not checked.
 */
export function RequireScopes(...scopes: string[]): ClassDecorator & MethodDecorator {
  return ((target: object, propertyKey?: string | symbol | object) => {
    if (isStandardDecoratorContext(propertyKey)) return metadataStorage.addStandardDecoratorUse(`@RequireScopes ${String(propertyKey.name)}`);
    if (propertyKey === undefined) return metadataStorage.addScopes({ target: target as ClassType, scopes });
    metadataStorage.addScopes({ target: (target as object).constructor as ClassType, methodName: String(propertyKey), scopes });
  }) as ClassDecorator & MethodDecorator;
}
