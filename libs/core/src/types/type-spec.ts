import type { SchemaNode } from './schema-node';
import type { ClassType } from './class-type';

/** A TypeScript enum object or any object of string/number values. */
export type EnumLike = Record<string, string | number>;

const UNION = Symbol.for('toolsets.union');

/** Several alternative types for one field: `@Field(() => unionOf(Cat, Dog))`. */
export interface UnionSpec {
  readonly [UNION]: true;
  readonly arms: readonly TypeSpec[];
}

/**
 * What a `@Field` type thunk may return: `String`, `Number`, `Boolean`, `Date`, a DTO class, an
 * array of one of these (`[Match]`), an enum object, `unionOf(...)`, or a TypeBox schema as is.
 */
export type TypeSpec = ClassType | readonly [TypeSpec] | EnumLike | UnionSpec | SchemaNode;

export type TypeThunk = () => TypeSpec;

export function unionOf(...arms: TypeSpec[]): UnionSpec {
  return { [UNION]: true, arms };
}

export function isUnionSpec(value: unknown): value is UnionSpec {
  return typeof value === 'object' && value !== null && UNION in value;
}
