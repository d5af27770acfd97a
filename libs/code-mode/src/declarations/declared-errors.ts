import type { JsonSchema } from './schema-type';

/** Whether `schema` (a tool's output schema) has a ToolError arm admitting `kind`. */
export function declaresError(schema: JsonSchema | undefined, kind: string): boolean {
  const arms = (schema?.anyOf ?? schema?.oneOf ?? []) as JsonSchema[];
  return arms.some((arm) => {
    const error = arm.properties?.['error'] as JsonSchema | undefined;
    if (!error || !arm.properties?.['detail']) return false;
    if (Array.isArray(error.enum)) return error.enum.includes(kind);
    return error.const === undefined ? true : error.const === kind;
  });
}
