import type { ClassType } from '../types/class-type';
import type { TypeThunk } from '../types/type-spec';

export interface FieldOptions {
  /** Shown to models as the property's `description`. */
  description?: string;
  /** Example values, advertised as `examples`. */
  examples?: unknown[];
  /**
   * Advertised as `default`: the value the other side assumes when the property is absent (an API's
   * own default). It is not applied to arguments; a property initializer (`limit = 10`) is both
   * advertised and applied.
   */
  default?: string | number | boolean;
  /** Marks the property `deprecated` in the schema; it is still validated and sent. */
  deprecated?: boolean;
  /** The value may be `null` as well: the schema becomes `anyOf: [T, { type: 'null' }]`. */
  nullable?: boolean;
  /** A JSON Schema `format` for a string, e.g. `'date'` for a date without a time (`2026-01-31`). */
  format?: 'date' | 'date-time' | 'time' | 'email' | 'uri' | 'uuid' | 'ipv4' | 'ipv6' | 'hostname';
  /**
   * In an elicitation form, a title per enum value, shown to the user instead of the value: a
   * single-select is sent as SEP-1330's `oneOf: [{ const, title }]`, a multi-select (an array with
   * `@IsIn([...], { each: true })`) as `items.anyOf`. Give every value of the field's enum a title.
   */
  enumTitles?: Readonly<Record<string, string>>;
  /**
   * With `enumTitles` on a single-select form field: send the titles the way clients before
   * protocol 2025-11-25 read them, `enumNames` beside `enum` (deprecated by SEP-1330).
   */
  legacyEnumNames?: boolean;
  /**
   * An argument 2026-07-28 clients mirror into the `Mcp-Param-{header}` HTTP header (SEP-2243,
   * `x-mcp-header`), so gateways and load balancers can route by it without reading the body; the
   * server refuses a call whose header and argument differ (400, -32020). A string, integer or
   * boolean argument; the name is an HTTP token, unique in the tool (any case).
   */
  header?: string;
}

export interface FieldMetadata {
  target: ClassType;
  propertyName: string;
  typeThunk?: TypeThunk;
  /** `design:type` as emitted by the compiler; undefined when metadata was not emitted. */
  designType?: unknown;
  /** Whether `Reflect.getMetadata` existed when the decorator ran (reflect-metadata loaded). */
  reflectLoaded: boolean;
  options: FieldOptions;
}
