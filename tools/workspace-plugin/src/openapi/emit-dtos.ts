import type { PropertyModel, SchemaModel } from './schema-model';
import { tsLiteral } from '@toolsets/core/ts-literal';

/** A DTO class to emit: a named object model, or a tool's args/result class built by the generator. */
export interface ClassToEmit {
  name: string;
  description?: string;
  /** `ToolResult` for a tool's result class; nothing for the rest. */
  extendsClass?: 'ToolResult';
  properties: readonly PropertyModel[];
}

/** Names a generated class must not take: globals and what the generated files import. */
const RESERVED = new Set(['Error', 'Date', 'Object', 'String', 'Number', 'Boolean', 'Array', 'Map', 'Set', 'Promise', 'Record', 'Type', 'ToolResult', 'ToolError', 'Field', 'Tool', 'Toolset', 'Result']);

/** The class name a model is emitted under. */
export function className(name: string): string {
  return RESERVED.has(name) ? `${name}Model` : name;
}

/**
 * TypeScript source for DTO classes: `@Field` with a type thunk on every property (classes, arrays,
 * enums through `@IsIn`, TypeBox schemas where keywords carry the constraints), `@IsOptional()` for
 * what is not required, `{ nullable: true }` for `T | null`. Classes come dependencies first, since
 * decorator metadata names a property's class when its own class is defined.
 */
export class DtoEmitter {
  private readonly emitted = new Set<string>();
  /** Classes started but not yet written: a recursive type's back-references, declared further down. */
  private readonly unwritten = new Set<string>();
  private readonly chunks: string[] = [];
  /** What the emitted code uses, for the file's imports. */
  readonly uses = { typebox: false, unionOf: false, result: false, validators: new Set<string>() };

  /** Emits a class (and every class it refers to, first). */
  emit(target: ClassToEmit): void {
    const name = className(target.name);
    if (this.emitted.has(name)) return;
    this.emitted.add(name);
    this.unwritten.add(name);
    for (const property of target.properties) this.emitDependencies(property.schema);
    this.unwritten.delete(name);
    const lines: string[] = [];
    if (target.description) lines.push(doc(target.description, ''));
    // A tool's result says what it is in its schema too (`What GET /pets/{id} answered.`): code mode's catalog reads the operation from it.
    if (target.description && target.extendsClass === 'ToolResult') {
      this.uses.result = true;
      lines.push(`@Result({ description: ${tsLiteral(target.description)} })`);
    }
    lines.push(`export class ${name}${target.extendsClass ? ` extends ${target.extendsClass}` : ''} {`);
    target.properties.forEach((property, index) => {
      if (index > 0) lines.push('');
      lines.push(...this.property(property));
    });
    lines.push('}');
    this.chunks.push(lines.join('\n'));
  }

  /** Every emitted class, in order. */
  source(): string {
    return this.chunks.join('\n\n');
  }

  private emitDependencies(schema: SchemaModel): void {
    if (schema.kind === 'object') this.emit({ name: schema.name, description: schema.description, properties: schema.properties });
    else if (schema.kind === 'array') this.emitDependencies(schema.items);
    else if (schema.kind === 'union') schema.arms.forEach((arm) => this.emitDependencies(arm));
  }

  private property({ name, required, schema, header, decorators }: PropertyModel): string[] {
    const lines: string[] = [];
    if (schema.kind === 'open') lines.push(`  // An open value: ${oneLine(schema.reason)}.`);
    // A document's default is advertised, not applied: the API applies its own when the argument is left out.
    const primitiveDefault = ['string', 'number', 'boolean'].includes(typeof schema.default) && !required;
    const options = {
      ...(schema.description && { description: schema.description }),
      ...(schema.nullable && { nullable: true }),
      ...(primitiveDefault && { default: schema.default }),
      ...(schema.examples && { examples: schema.examples }),
      ...(header && { header }),
    };
    const entries = Object.entries(options).map(([key, value]) => `${key}: ${tsLiteral(value)}`);
    const optionsText = entries.length ? `, { ${entries.join(', ')} }` : '';
    lines.push(`  @Field(() => ${this.thunk(schema)}${optionsText})`);
    for (const decorator of decorators ?? []) lines.push(`  ${decorator}`);
    for (const validator of this.validators(schema)) lines.push(`  ${validator}`);
    if (!required) {
      this.uses.validators.add('IsOptional');
      lines.push('  @IsOptional()');
    }
    const key = /^[A-Za-z_$][\w$]*$/.test(name) ? name : tsLiteral(name);
    // A class declared further down (a recursive type's way back) is typed `X & object`: its
    // design:type is then Object, not X, which the module would read before X exists. The type thunk names X.
    const later = schema.kind === 'object' && this.unwritten.has(className(schema.name));
    lines.push(`  ${key}${required ? '!' : '?'}: ${this.tsType(schema)}${later ? ' & object' : ''}${schema.nullable ? ' | null' : ''};`);
    return lines;
  }

  /** What `@Field`'s thunk returns for a schema. */
  private thunk(schema: SchemaModel): string {
    switch (schema.kind) {
      case 'object':
        return className(schema.name);
      case 'array':
        return `[${this.thunk(schema.items)}]`;
      case 'enum':
        return schema.values.every((value) => typeof value === 'number') ? 'Number' : 'String';
      case 'union':
        this.uses.unionOf = true;
        // A discriminator stays out of the wire schema: strict Ajv clients refuse OpenAPI's `discriminator` keyword.
        // An enum arm keeps its values as a TypeBox union of literals.
        return `unionOf(${schema.arms.map((arm) => (arm.kind === 'enum' ? this.typebox(arm) : this.thunk(arm))).join(', ')})`;
      case 'string':
        return hasKeywords(schema, ['format', 'pattern', 'minLength', 'maxLength']) ? this.typebox(schema) : 'String';
      case 'number':
      case 'integer':
        return hasKeywords(schema, ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum']) ? this.typebox(schema) : 'Number';
      case 'boolean':
        return 'Boolean';
      case 'record':
      case 'open':
        return this.typebox(schema);
    }
  }

  /** A TypeBox schema carrying every keyword, for values that are not classes. */
  private typebox(schema: SchemaModel): string {
    this.uses.typebox = true;
    const keywords = (model: Record<string, unknown>, keys: string[]) => {
      const picked = Object.fromEntries(keys.filter((key) => model[key] !== undefined).map((key) => [key, model[key]]));
      return Object.keys(picked).length ? tsLiteral(picked) : '';
    };
    switch (schema.kind) {
      case 'string':
        return `Type.String(${keywords(schema, ['format', 'pattern', 'minLength', 'maxLength'])})`;
      case 'number':
        return `Type.Number(${keywords(schema, ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'])})`;
      case 'integer':
        return `Type.Integer(${keywords(schema, ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'])})`;
      case 'boolean':
        return 'Type.Boolean()';
      case 'record': {
        const values = schema.values.kind === 'object' || schema.values.kind === 'array' || schema.values.kind === 'union' || schema.values.kind === 'enum' ? 'Type.Unknown()' : this.typebox(schema.values);
        return `Type.Record(Type.String(), ${values})`;
      }
      case 'enum':
        return `Type.Union([${schema.values.map((value) => `Type.Literal(${tsLiteral(value)})`).join(', ')}])`;
      default:
        return 'Type.Unknown()';
    }
  }

  private validators(schema: SchemaModel): string[] {
    const use = (name: string, text: string) => (this.uses.validators.add(name), text);
    if (schema.kind === 'enum') return [use('IsIn', `@IsIn(${tsLiteral(schema.values)})`)];
    if (schema.kind === 'integer' && this.thunk(schema) === 'Number') return [use('IsInt', '@IsInt()')];
    if (schema.kind !== 'array') return [];
    const rules: string[] = [];
    if (schema.minItems !== undefined) rules.push(use('ArrayMinSize', `@ArrayMinSize(${countLiteral(schema.minItems, 'minItems')})`));
    if (schema.maxItems !== undefined) rules.push(use('ArrayMaxSize', `@ArrayMaxSize(${countLiteral(schema.maxItems, 'maxItems')})`));
    if (schema.uniqueItems) rules.push(use('ArrayUnique', '@ArrayUnique()'));
    if (schema.items.kind === 'enum') rules.push(use('IsIn', `@IsIn(${tsLiteral(schema.items.values)}, { each: true })`));
    return rules;
  }

  private tsType(schema: SchemaModel): string {
    switch (schema.kind) {
      case 'string':
        return 'string';
      case 'number':
      case 'integer':
        return 'number';
      case 'boolean':
        return 'boolean';
      case 'enum':
        return schema.values.map((value) => tsLiteral(value)).join(' | ');
      case 'array': {
        const items = this.tsType(schema.items);
        return /[ |]/.test(items) ? `(${items})[]` : `${items}[]`;
      }
      case 'object':
        return className(schema.name);
      case 'record':
        return 'Record<string, unknown>';
      case 'union':
        return schema.arms.map((arm) => this.tsType(arm)).join(' | ');
      case 'open':
        return 'unknown';
    }
  }
}

function hasKeywords(schema: object, keys: readonly string[]): boolean {
  return keys.some((key) => (schema as Record<string, unknown>)[key] !== undefined);
}

/**
 * A count as source text, only if it is one: the converter already checks, and generated source
 * never takes a document's value as code (a string there would run when the module loads).
 */
function countLiteral(value: unknown, keyword: string): string {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw new Error(`${keyword} ${JSON.stringify(value)} is not a non-negative whole number and cannot be generated`);
  return String(value);
}

/** Text for a line comment: a line break (any of JavaScript's four) would end the comment and start code. */
function oneLine(text: string): string {
  return text.replace(/[\r\n\u2028\u2029]+/g, ' ');
}

function doc(text: string, indent: string): string {
  const lines = text.replace(/\*\//g, '*\\/').split('\n');
  return [`${indent}/**`, ...lines.map((line) => `${indent} * ${line}`.trimEnd()), `${indent} */`].join('\n');
}

/** The import lines a file of emitted DTOs needs. */
export function dtoImports(uses: DtoEmitter['uses'], extra: { core?: string[] } = {}): string {
  const core = ['Field', ...(uses.unionOf ? ['unionOf'] : []), ...(uses.result ? ['Result'] : []), ...(extra.core ?? [])].sort();
  const lines = [`import { ${core.join(', ')} } from '@toolsets/core';`];
  if (uses.validators.size) lines.unshift(`import { ${[...uses.validators].sort().join(', ')} } from 'class-validator';`);
  if (uses.typebox) lines.push("import { Type } from 'typebox';");
  return lines.join('\n');
}
