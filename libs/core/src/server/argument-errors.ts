import type { TLocalizedValidationError } from 'typebox/error';

/** Turns schema errors into one line per bad field, in words a model can act on. */
export function describeArgumentErrors(errors: readonly TLocalizedValidationError[], declared: readonly string[]): string[] {
  const lines = new Set<string>();
  for (const error of errors) {
    const at = error.instancePath ? `'${error.instancePath.slice(1).replace(/\//g, '.')}'` : 'the arguments';
    if (error.keyword === 'additionalProperties') {
      const takes = declared.length ? `it takes: ${declared.join(', ')}` : 'it takes no arguments';
      for (const key of error.params.additionalProperties) {
        lines.add(`'${key}' is not an argument of this tool (${takes}).`);
      }
    } else if (error.keyword === 'required') {
      for (const key of error.params.requiredProperties) {
        lines.add(`${error.instancePath ? `${at}: ` : ''}'${key}' is required.`);
      }
    } else if (error.keyword === 'anyOf' || error.keyword === 'oneOf') {
      lines.add(`${at} matches none of its allowed shapes.`);
    } else {
      lines.add(`${at} ${error.message}.`);
    }
  }
  return [...lines];
}
