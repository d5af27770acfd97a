import type { TLocalizedValidationError } from 'typebox/error';

/** Turns schema errors into one line per bad field, in words a model can act on. */
export function describeArgumentErrors(errors: readonly TLocalizedValidationError[], declared: readonly string[]): string[] {
  const lines = new Set<string>();
  for (const error of errors) {
    const at = error.instancePath ? `'${error.instancePath.slice(1).replace(/\//g, '.')}'` : 'the arguments';
    if (isAdditionalPropertyEcho(error)) continue;
    if (error.keyword === 'additionalProperties') {
      const takes = declared.length ? `it takes: ${declared.join(', ')}` : 'it takes no arguments';
      for (const key of error.params.additionalProperties) {
        lines.add(`'${key}' is not an argument of this tool (${takes}).`);
      }
    } else if (error.keyword === 'required') {
      for (const key of error.params.requiredProperties) {
        lines.add(`${error.instancePath ? `${at}: ` : ''}'${key}' is required.`);
      }
    } else if (error.keyword === 'enum') {
      lines.add(`${at} must be one of: ${allowedValues(error)}.`);
    } else if (error.keyword === 'anyOf' || error.keyword === 'oneOf') {
      lines.add(`${at} matches none of its allowed shapes.`);
    } else {
      lines.add(`${at} ${error.message}.`);
    }
  }
  return [...lines];
}

/**
 * Schema errors of a result, one per problem, for the server log:
 * `/greetings/0 must have required property 'text'`.
 */
export function describeResultErrors(errors: readonly TLocalizedValidationError[]): string[] {
  const lines: string[] = [];
  for (const error of errors) {
    const at = error.instancePath || '/';
    if (isAdditionalPropertyEcho(error)) continue;
    if (error.keyword === 'required') {
      for (const key of error.params.requiredProperties) lines.push(`${at} must have required property '${key}'`);
    } else if (error.keyword === 'enum') {
      lines.push(`${at} must be one of: ${allowedValues(error)}`);
    } else {
      lines.push(`${at} ${error.message}`);
    }
  }
  return lines;
}

/** TypeBox reports an undeclared key twice: once per key as "schema is false", once as additionalProperties. */
function isAdditionalPropertyEcho(error: TLocalizedValidationError): boolean {
  return error.keyword === 'boolean' && error.schemaPath.endsWith('/additionalProperties');
}

function allowedValues(error: TLocalizedValidationError): string {
  const values = (error.params as { allowedValues?: unknown[] }).allowedValues ?? [];
  return values.map((value) => JSON.stringify(value)).join(', ');
}
