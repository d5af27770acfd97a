import type { ClassType } from '../types/class-type';
import { Type } from 'typebox';
import { metadataStorage } from '../metadata/metadata-storage';
import type { FieldMetadata } from '../metadata/field-metadata';
import type { ContractViolation, ViolationSite } from '../errors/contract-violation';
import { MissingTypeMetadataError } from '../errors/missing-type-metadata.error';
import { NoExplicitTypeError } from '../errors/no-explicit-type.error';
import { NoFieldsError } from '../errors/no-fields.error';
import { ReflectMetadataMissingError } from '../errors/reflect-metadata-missing.error';
import { UnsupportedPatternError } from '../errors/unsupported-pattern.error';
import { TypeThunkError } from '../errors/type-thunk.error';
import { UnsupportedTypeError } from '../errors/unsupported-type.error';
import { ValidationWithoutFieldError } from '../errors/validation-without-field.error';
import { isUnionSpec, type TypeSpec } from '../types/type-spec';
import type { ClassModel, FieldModel, TypeModel } from './type-model';
import { readValidation, enumValues, type PropertyValidation } from './validator-keywords';

/** `design:type` values that do not say what a property holds. */
const AMBIGUOUS = new Set<unknown>([Object, Array, Promise, Function]);

/**
 * Resolves DTO classes into `ClassModel`s, once per class, and collects every contract violation met
 * on the way instead of stopping at the first.
 */
export class ClassModelBuilder {
  private readonly models = new Map<ClassType, ClassModel | null>();
  /** Classes whose fields are being resolved: met again, they are recursive references. */
  private readonly building = new Map<ClassType, ClassModel>();
  /** Fields of the class being built that have no design:type: reported once per class. */
  private missingMetadata: string[] = [];

  constructor(readonly violations: ContractViolation[] = []) {}

  /** Every class built so far, in the order met. */
  get classes(): ClassType[] {
    return [...this.models.keys()];
  }

  /** The model of `cls`, or undefined when it cannot be expressed (the reason is in `violations`). */
  build(cls: ClassType, site: ViolationSite, role: 'root' | 'nested' | 'args' = 'root'): ClassModel | undefined {
    const cached = this.models.get(cls);
    if (cached !== undefined) return cached ?? undefined;
    // A class met again while its own fields are resolved (a tree node's children, a comment's
    // replies) is a recursive type: the same model, whose fields are filled in when its class is done.
    const pending = this.building.get(cls);
    if (pending) return pending;
    const model: ClassModel = {
      cls,
      name: cls.name,
      description: metadataStorage.getResult(cls)?.options.description,
      fields: [],
      extraRules: [],
    };
    this.building.set(cls, model);
    const before = this.violations.length;
    this.buildFields(model, site, role);
    this.building.delete(cls);
    const ok = this.violations.length === before;
    this.models.set(cls, ok ? model : null);
    return ok ? model : undefined;
  }

  private buildFields(model: ClassModel, site: ViolationSite, role: 'root' | 'nested' | 'args'): void {
    const { cls } = model;
    const fields = metadataStorage.getFields(cls);
    if (fields.length === 0 && role !== 'root') {
      this.violations.push(new NoFieldsError(site, cls.name, role === 'args' ? 'args' : 'nested'));
    }
    const outerMissing = this.missingMetadata;
    this.missingMetadata = [];
    const validation = readValidation(cls);
    this.checkValidatedFieldsDeclared(cls, site, fields, validation);
    for (const field of fields) {
      const fieldSite = { ...site, path: `${site.path ?? cls.name}.${field.propertyName}` };
      const rules = validation.get(field.propertyName);
      const type = this.resolveField(field, fieldSite, rules);
      if (!type) continue;
      if (rules?.unsupportedPatternFlags) {
        this.violations.push(new UnsupportedPatternError(fieldSite, cls.name, field.propertyName, rules.unsupportedPatternFlags));
      }
      model.fields.push(fieldModelOf(field, type, rules));
      for (const rule of rules?.unmapped ?? []) model.extraRules.push(`${field.propertyName}: ${rule}`);
    }
    if (this.missingMetadata.length > 0) this.violations.push(new MissingTypeMetadataError({ ...site, path: site.path ?? cls.name }, cls.name, this.missingMetadata));
    this.missingMetadata = outerMissing;
  }

  /** A property with validation decorators but no @Field would vanish from the schema: each is a violation. */
  private checkValidatedFieldsDeclared(cls: ClassType, site: ViolationSite, fields: readonly FieldMetadata[], validation: ReadonlyMap<string, PropertyValidation>): void {
    const declared = new Set(fields.map((field) => field.propertyName));
    for (const [property, rules] of validation) {
      if (!declared.has(property)) {
        this.violations.push(new ValidationWithoutFieldError({ ...site, path: `${site.path ?? cls.name}.${property}` }, cls.name, property, rules.names));
      }
    }
  }

  private resolveField(field: FieldMetadata, site: ViolationSite, rules?: PropertyValidation): TypeModel | undefined {
    const className = field.target.name;
    let type: TypeModel | undefined;
    if (field.typeThunk) {
      let spec: unknown;
      try {
        spec = field.typeThunk();
      } catch (error) {
        this.violations.push(new TypeThunkError(site, className, field.propertyName, `threw "${(error as Error)?.message ?? String(error)}"`));
        return undefined;
      }
      if (spec === undefined || (Array.isArray(spec) && spec.length === 1 && spec[0] === undefined)) {
        this.violations.push(new TypeThunkError(site, className, field.propertyName, 'returned undefined'));
        return undefined;
      }
      type = this.fromSpec(spec, site, className, field.propertyName);
    } else if (!field.reflectLoaded) {
      this.violations.push(new ReflectMetadataMissingError(site, className, field.propertyName));
    } else if (field.designType === undefined) {
      this.missingMetadata.push(field.propertyName);
    } else if (AMBIGUOUS.has(field.designType)) {
      this.violations.push(new NoExplicitTypeError(site, className, field.propertyName, (field.designType as { name: string }).name));
    } else {
      type = this.fromSpec(field.designType, site, className, field.propertyName);
    }
    return type && rules ? refine(type, rules) : type;
  }

  private fromSpec(spec: unknown, site: ViolationSite, className: string, property: string): TypeModel | undefined {
    const primitive = PRIMITIVES.get(spec);
    if (primitive) return { kind: primitive };
    if (Array.isArray(spec) && spec.length === 1) {
      const items = this.fromSpec(spec[0], { ...site, path: `${site.path}[]` }, className, property);
      return items && { kind: 'array', items };
    }
    if (isUnionSpec(spec)) {
      const arms = spec.arms.map((arm: TypeSpec) => this.fromSpec(arm, site, className, property));
      return arms.every(Boolean) ? { kind: 'union', arms: arms as TypeModel[] } : undefined;
    }
    if (typeof spec === 'function' && !AMBIGUOUS.has(spec) && spec.prototype) {
      const model = this.build(spec as ClassType, site, 'nested');
      return model && { kind: 'object', model };
    }
    if (Type.IsSchema(spec) && Object.getOwnPropertyNames(spec).includes('~kind')) return { kind: 'schema', schema: spec };
    if (isEnumLike(spec)) return { kind: 'enum', values: enumValues(spec) };
    this.violations.push(new UnsupportedTypeError(site, className, property, describe(spec)));
    return undefined;
  }
}

/** The built-in constructors a field type may name, and the kind each becomes. */
const PRIMITIVES = new Map<unknown, 'string' | 'number' | 'boolean' | 'date' | 'json-object'>([
  [String, 'string'],
  [Number, 'number'],
  [Boolean, 'boolean'],
  [Date, 'date'],
  [Object, 'json-object'],
]);

/** Applies the type-changing validators: `IsInt` (number → integer) and `IsIn`/`IsEnum` (→ enum). */
function refine(type: TypeModel, rules: PropertyValidation): TypeModel {
  if (type.kind === 'array') {
    let items = type.items;
    if (rules.integerEach && items.kind === 'number') items = { kind: 'integer' };
    if (rules.enumValues && rules.enumEach) items = { kind: 'enum', values: rules.enumValues };
    return items === type.items ? type : { kind: 'array', items };
  }
  if (rules.enumValues && !rules.enumEach) return { kind: 'enum', values: rules.enumValues };
  if (rules.integer && type.kind === 'number') return { kind: 'integer' };
  return type;
}

function isEnumLike(spec: unknown): spec is Record<string, string | number> {
  if (typeof spec !== 'object' || spec === null || Array.isArray(spec)) return false;
  const values = Object.values(spec);
  return values.length > 0 && values.every((v) => typeof v === 'string' || typeof v === 'number');
}

function describe(spec: unknown): string {
  if (spec === undefined) return 'undefined';
  if (typeof spec === 'function') return spec.name || 'an anonymous function';
  if (Array.isArray(spec)) return `an array of ${spec.length} types (use [Type] for an array, unionOf(...) for a union)`;
  return typeof spec === 'object' ? 'an object that is neither an enum nor a TypeBox schema' : String(spec);
}

/** One field of a class model: its type, the keywords its decorators give, and what @Field says of it. */
function fieldModelOf(field: FieldMetadata, type: TypeModel, rules: PropertyValidation | undefined): FieldModel {
  return {
    name: field.propertyName,
    optional: rules?.optional ?? false,
    type,
    keywords: {
      value: {
        ...(rules?.value ?? {}),
        ...(field.options.format !== undefined && { format: field.options.format }),
        ...(field.options.header !== undefined && { 'x-mcp-header': field.options.header }),
      },
      items: rules?.items ?? {},
    },
    description: field.options.description,
    examples: field.options.examples,
    ...(field.options.default !== undefined && { advertisedDefault: field.options.default }),
    deprecated: field.options.deprecated,
    nullable: field.options.nullable,
    ...(field.options.enumTitles !== undefined && { enumTitles: field.options.enumTitles }),
    ...(field.options.legacyEnumNames !== undefined && { legacyEnumNames: field.options.legacyEnumNames }),
  };
}
