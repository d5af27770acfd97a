import type { ClassType } from '../types/class-type';
import type { Completer } from '../metadata/completer-metadata';
import { metadataStorage } from '../metadata/metadata-storage';
import { isStandardDecoratorContext } from './standard-decorator-context';

/**
 * Completes an argument of a prompt or resource template as the user types it
 * (`completion/complete`): `@Complete((value) => cities.filter((c) => c.startsWith(value)))`.
 * Put it next to the argument's `@Field`. A completer that needs the toolset's services or the
 * caller's credentials reads its toolset, resolved for the request:
 * `@Complete<RepoToolset>((value, { toolset }) => toolset.repoNames(value))`.
 */
export function Complete<T = unknown>(complete: Completer<T>): PropertyDecorator {
  return (prototype: object, propertyKey: string | symbol) => {
    if (isStandardDecoratorContext(propertyKey)) return metadataStorage.addStandardDecoratorUse(`@Complete ${String(propertyKey.name)}`);
    metadataStorage.addCompleter({ target: prototype.constructor as ClassType, propertyName: String(propertyKey), complete: complete as Completer });
  };
}
