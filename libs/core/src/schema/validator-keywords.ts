import type { ClassType } from '../types/class-type';
import { getMetadataStorage } from 'class-validator';

type ValidationMetadata = ReturnType<ReturnType<typeof getMetadataStorage>['getTargetValidationMetadatas']>[number];

/** What the class-validator decorators of one property say about its schema. */
export interface PropertyValidation {
  optional: boolean;
  /** `IsInt` (refines number to integer), `IsEnum`/`IsIn` (replace the type by an enum). */
  integer: boolean;
  integerEach: boolean;
  enumValues?: readonly (string | number)[];
  enumEach: boolean;
  value: Record<string, unknown>;
  items: Record<string, unknown>;
  /** Regex flags JSON Schema `pattern` cannot carry (it has none). */
  unsupportedPatternFlags?: string;
  /** Validators with no JSON Schema form (`IsPhoneNumber`, custom ones): class-validator runs them. */
  unmapped: string[];
  /** Every decorator on the property, by class-validator's name for it (`IsIn`, `IsOptional`). */
  names: string[];
}

/** Validators the schema's `type` already enforces. */
const COVERED_BY_TYPE = new Set(['isString', 'isNumber', 'isBoolean', 'isDate', 'isArray', 'isObject', 'isDefined']);

/**
 * Validators whose accepted values a JSON Schema `format` accepts too. `IsISO8601`/`IsDateString`
 * are not here: they accept date-only and week dates that `date-time` refuses, so class-validator
 * checks them at call time; declare `@Field({ format: 'date' })` or use `@IsRFC3339()` for a format.
 */
const FORMATS: Record<string, string> = {
  isEmail: 'email',
  isUuid: 'uuid',
  isRFC3339: 'date-time',
};

/**
 * class-validator's metadata for `cls`, inherited included, as `getTargetValidationMetadatas` returns
 * it (a subclass's rule of a kind replaces the inherited ones of that kind on that property). That
 * method scans every decorated class for ancestors, which makes a large catalog quadratic; this
 * walks the class's own ancestry through the same per-class map, and falls back to the public
 * method if that map ever changes shape; `checkValidationShortcut` compares the two at startup.
 */
export function validationMetadatasOf(cls: ClassType): ValidationMetadata[] {
  const storage = getMetadataStorage();
  const byTarget = (storage as unknown as { validationMetadatas?: unknown }).validationMetadatas;
  if (!(byTarget instanceof Map)) return storage.getTargetValidationMetadatas(cls, '', true, false);
  const own = ((byTarget.get(cls) ?? []) as ValidationMetadata[]).filter((metadata) => metadata.target === cls);
  const inherited: ValidationMetadata[] = [];
  // The prototype chain, as class-validator's own `cls.prototype instanceof ancestor` sees it.
  for (let proto = Object.getPrototypeOf(cls.prototype); proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    inherited.push(...((byTarget.get(proto.constructor) ?? []) as ValidationMetadata[]));
  }
  const unshadowed = inherited.filter((metadata) => !own.some((o) => o.propertyName === metadata.propertyName && o.type === metadata.type));
  return own.concat(unshadowed);
}

/** Reads class-validator's metadata for `cls` (inherited included), grouped by property. */
export function readValidation(cls: ClassType): Map<string, PropertyValidation> {
  const byProperty = new Map<string, PropertyValidation>();
  const metadatas = validationMetadatasOf(cls);
  for (const metadata of metadatas) {
    let entry = byProperty.get(metadata.propertyName);
    if (!entry) {
      entry = { optional: false, integer: false, integerEach: false, enumEach: false, value: {}, items: {}, unmapped: [], names: [] };
      byProperty.set(metadata.propertyName, entry);
    }
    const name = metadata.name ?? (metadata.type === 'nestedValidation' ? 'validateNested' : metadata.type);
    entry.names.push(name.charAt(0).toUpperCase() + name.slice(1));
    apply(entry, metadata);
  }
  return byProperty;
}

function apply(entry: PropertyValidation, metadata: ValidationMetadata): void {
  if (metadata.type === 'conditionalValidation' && metadata.name === 'isOptional') {
    entry.optional = true;
    return;
  }
  const name = metadata.name ?? '';
  const [first, second] = metadata.constraints ?? [];
  const site: RuleSite = { entry, target: metadata.each ? entry.items : entry.value, each: metadata.each === true, first, second };
  // Own keys only: a custom validator may be named `constructor`.
  if (Object.hasOwn(KEYWORD_RULES, name)) KEYWORD_RULES[name]!(site);
  else if (Object.hasOwn(FORMATS, name)) site.target['format'] = FORMATS[name];
  else if (metadata.type === 'customValidation' && !COVERED_BY_TYPE.has(name)) entry.unmapped.push(name || 'custom');
}

/** Where one validation decorator's keyword goes: the property, or each item when `{ each: true }`. */
interface RuleSite {
  entry: PropertyValidation;
  target: Record<string, unknown>;
  each: boolean;
  first: unknown;
  second: unknown;
}

/** What each class-validator decorator means in JSON Schema, by its metadata name. */
const KEYWORD_RULES: Record<string, (site: RuleSite) => void> = {
  isInt: ({ entry, each }) => void (each ? (entry.integerEach = true) : (entry.integer = true)),
  isIn: ({ entry, each, first }) => {
    entry.enumValues = first as (string | number)[];
    entry.enumEach = each;
  },
  isEnum: ({ entry, each, first }) => {
    entry.enumValues = enumValues(first as Record<string, string | number>);
    entry.enumEach = each;
  },
  min: ({ target, first }) => void (target['minimum'] = first),
  max: ({ target, first }) => void (target['maximum'] = first),
  isPositive: ({ target }) => void (target['exclusiveMinimum'] = 0),
  isNegative: ({ target }) => void (target['exclusiveMaximum'] = 0),
  minLength: ({ target, first }) => void (target['minLength'] = first),
  maxLength: ({ target, first }) => void (target['maxLength'] = first),
  isLength: ({ target, first, second }) => {
    target['minLength'] = first;
    if (second !== undefined) target['maxLength'] = second;
  },
  isNotEmpty: ({ target }) => void (target['minLength'] = Math.max(1, Number(target['minLength'] ?? 0))),
  matches: ({ entry, target, first, second }) => {
    const regex = first instanceof RegExp ? first : new RegExp(String(first), (second as string | undefined) ?? '');
    const flags = regex.flags.replace(/[gu]/g, '');
    if (flags) entry.unsupportedPatternFlags = flags;
    target['pattern'] = regex.source;
  },
  arrayMinSize: ({ entry, first }) => void (entry.value['minItems'] = first),
  arrayMaxSize: ({ entry, first }) => void (entry.value['maxItems'] = first),
  arrayNotEmpty: ({ entry }) => void (entry.value['minItems'] = Math.max(1, Number(entry.value['minItems'] ?? 0))),
  arrayUnique: ({ entry }) => void (entry.value['uniqueItems'] = true),
  isUrl: ({ entry, target, first }) => {
    // Without require_protocol, IsUrl accepts `example.com`, which `format: uri` refuses.
    if ((first as { require_protocol?: boolean } | undefined)?.require_protocol) target['format'] = 'uri';
    else entry.unmapped.push('isUrl');
  },
};

/** The values of a TypeScript enum, without the reverse entries numeric enums carry. */
export function enumValues(entity: Record<string, string | number>): (string | number)[] {
  return Object.entries(entity)
    .filter(([key]) => !/^\d+$/.test(key) || typeof entity[entity[key] as string] !== 'number')
    .map(([, value]) => value);
}
