/**
 * A response or request schema as the emitter needs it: what the framework can express (classes,
 * arrays, enums, unions, records, nullable values), and `open` for the rest, with the reason.
 */
export type SchemaModel = (
  | { kind: 'string'; format?: string; pattern?: string; minLength?: number; maxLength?: number }
  | { kind: 'number' | 'integer'; minimum?: number; maximum?: number; exclusiveMinimum?: number; exclusiveMaximum?: number }
  | { kind: 'boolean' }
  | { kind: 'enum'; values: readonly (string | number)[] }
  | { kind: 'array'; items: SchemaModel; minItems?: number; maxItems?: number; uniqueItems?: boolean }
  | { kind: 'object'; name: string; description?: string; properties: readonly PropertyModel[] }
  | { kind: 'record'; values: SchemaModel }
  | { kind: 'union'; arms: readonly SchemaModel[]; discriminator?: string }
  | { kind: 'open'; reason: string }
) & { nullable?: boolean; description?: string; default?: unknown; examples?: readonly unknown[] };

export interface PropertyModel {
  name: string;
  required: boolean;
  schema: SchemaModel;
  /** The `Mcp-Param-{header}` header 2026-07-28 clients mirror this argument into (`@Field({ header })`). */
  header?: string;
  /** Decorators written after its `@Field`, as source (an MCP library's `@Complete`). */
  decorators?: readonly string[];
}
