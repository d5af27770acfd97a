import type { ClassType } from '../types/class-type';
import type { SchemaNode } from '../types/schema-node';

/**
 * The resolved shape of a DTO, built once per class at startup from `@Field`, `design:type` and
 * class-validator metadata. Schemas, result projection and argument instantiation all read it.
 */
export type TypeModel =
  | { kind: 'string' | 'number' | 'integer' | 'boolean' | 'date' | 'json-object' }
  | { kind: 'enum'; values: readonly (string | number)[] }
  | { kind: 'object'; model: ClassModel }
  | { kind: 'array'; items: TypeModel }
  | { kind: 'union'; arms: readonly TypeModel[] }
  | { kind: 'schema'; schema: SchemaNode };

/** JSON Schema keywords a class-validator decorator contributes, split by where they apply. */
export interface FieldKeywords {
  /** On the property's own schema (`minLength`, `minItems`, `format`, ...). */
  value: Record<string, unknown>;
  /** On each item, from validators declared with `{ each: true }`. */
  items: Record<string, unknown>;
}

export interface FieldModel {
  name: string;
  optional: boolean;
  type: TypeModel;
  keywords: FieldKeywords;
  description?: string;
  examples?: unknown[];
  deprecated?: boolean;
  /** `null` is a valid value too. */
  nullable?: boolean;
  /** The value a fresh instance of the class holds (from a property initializer), if any. */
  defaultValue?: unknown;
  /** `@Field({ default })`: advertised, not applied. */
  advertisedDefault?: string | number | boolean;
  /** `@Field({ enumTitles })`: an elicitation form's titles per enum value. */
  enumTitles?: Readonly<Record<string, string>>;
  /** `@Field({ legacyEnumNames })`: send those titles as `enumNames`. */
  legacyEnumNames?: boolean;
}

export interface ClassModel {
  cls: ClassType;
  name: string;
  description?: string;
  fields: FieldModel[];
  /** class-validator rules on this class's fields with no JSON Schema form (`isPhoneNumber`, custom). */
  extraRules: string[];
}
