/**
 * A JSON Schema object, as TypeBox builds it. TypeBox's own `TSchema` is an empty interface, so
 * any object is one; core's declarations name this instead, so a project that uses core does not
 * load TypeBox's type-level engine: it was 15 of the 20 seconds TypeScript 5.9 spent checking a
 * one-file consumer without skipLibCheck.
 */
export type SchemaNode = object;
