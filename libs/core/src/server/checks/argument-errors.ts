import type { TLocalizedValidationError } from 'typebox/error' with { 'resolution-mode': 'import' };
import { lazyValidator, type SchemaValidator } from '../../compiled/lazy-validator';
import type { SchemaNode } from '../../types/schema-node';
import { clip } from '../../helpers/client-text';
import { pointerKeys } from '../../helpers/json-pointer';
import { NAMED_KEYS, namedKeys } from './argument-limits';

/**
 * What is wrong with arguments that failed their schema check. Keys the arguments carry that no
 * argument declares are found here, in one pass, and named (a few, with a count of the rest);
 * the schema's own errors are then taken from the declared keys only. TypeBox stops at 8 errors,
 * and spends time on every undeclared key finding them.
 */
export function argumentProblems(validator: SchemaValidator, args: unknown, declared: readonly string[]): string[] {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return describeArgumentErrors(validator.Errors(args), declared);
  const known = new Set(declared);
  const undeclared = Object.keys(args).filter((key) => !known.has(key));
  if (undeclared.length === 0) return describeArgumentErrors(validator.Errors(args), declared);
  const lines =
    undeclared.length <= NAMED_KEYS
      ? undeclared.map((key) => undeclaredLine(key, declared))
      : [`${namedKeys(undeclared)} are not arguments of this tool (${takesWhat(declared)}).`];
  const declaredOnly = Object.fromEntries(declared.filter((key) => Object.hasOwn(args, key)).map((key) => [key, (args as Record<string, unknown>)[key]]));
  return [...lines, ...describeArgumentErrors(validator.Errors(declaredOnly), declared)];
}

/** Turns schema errors into one line per bad field, in words a model can act on. */
export function describeArgumentErrors(errors: readonly TLocalizedValidationError[], declared: readonly string[]): string[] {
  const lines = new Set<string>();
  for (const error of errors) {
    const at = error.instancePath ? `'${error.instancePath.slice(1).replace(/\//g, '.')}'` : 'the arguments';
    if (isAdditionalPropertyEcho(error)) {
      // One per undeclared key, before the summary error, which TypeBox's cap of 8 errors may cut off.
      const path = pointerKeys(error.instancePath);
      const key = path.pop()!;
      lines.add(path.length === 0 ? undeclaredLine(key, declared) : `'${path.join('.')}' has no property '${key}'.`);
    } else if (error.keyword === 'additionalProperties') {
      const parent = pointerKeys(error.instancePath).join('.');
      for (const key of error.params.additionalProperties) lines.add(parent ? `'${parent}' has no property '${key}'.` : undeclaredLine(key, declared));
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

function undeclaredLine(key: string, declared: readonly string[]): string {
  return `'${clip(key)}' is not an argument of this tool (${takesWhat(declared)}).`;
}

function takesWhat(declared: readonly string[]): string {
  return declared.length ? `it takes: ${declared.join(', ')}` : 'it takes no arguments';
}

/**
 * A check of arguments against a tool's advertised JSON Schema (`inputSchema`), compiled on first
 * use: what is wrong, one line per problem in the words a tool call's refusal uses, or none. For
 * tools a package serves beside the catalog's (code mode's), so their arguments are checked by
 * the schema they advertise and nothing else.
 */
export function argumentChecker(inputSchema: Record<string, unknown>): (args: unknown) => string[] {
  const validator = lazyValidator(inputSchema as unknown as SchemaNode);
  const declared = Object.keys((inputSchema['properties'] as object | undefined) ?? {});
  return (args) => (validator.Check(args) ? [] : argumentProblems(validator, args, declared));
}
