import type { ClassType } from '../types/class-type';
import { metadataStorage } from '../metadata/metadata-storage';
import type { FieldOptions } from '../metadata/field-metadata';
import type { TypeThunk } from '../types/type-spec';
import { isStandardDecoratorContext } from './standard-decorator-context';

/**
 * Declares a property of a result or argument DTO. The type comes from `design:type`, or from the
 * thunk where that is ambiguous: `@Field(() => [Match])`, `@Field(() => Nested)`, `@Field(() => Color)`.
 */
export function Field(options?: FieldOptions): PropertyDecorator;
export function Field(type: TypeThunk, options?: FieldOptions): PropertyDecorator;
export function Field(typeOrOptions?: TypeThunk | FieldOptions, maybeOptions?: FieldOptions): PropertyDecorator {
  const typeThunk = typeof typeOrOptions === 'function' ? typeOrOptions : undefined;
  const options = (typeof typeOrOptions === 'function' ? maybeOptions : typeOrOptions) ?? {};
  return (prototype: object, propertyKey: string | symbol) => {
    if (isStandardDecoratorContext(propertyKey)) return metadataStorage.addStandardDecoratorUse(`@Field ${String(propertyKey.name)}`);
    const reflectLoaded = typeof Reflect.getMetadata === 'function';
    metadataStorage.addField({
      target: prototype.constructor as ClassType,
      propertyName: String(propertyKey),
      typeThunk,
      designType: reflectLoaded ? Reflect.getMetadata('design:type', prototype, propertyKey) : undefined,
      reflectLoaded,
      options,
    });
  };
}
