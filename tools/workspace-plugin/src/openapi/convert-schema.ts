import type { PropertyModel, SchemaModel } from './schema-model';
import { SchemaIdentity, positionNames } from './schema-identity';
import { clipped, defaultFits, exampleOf, flattenAllOf, formatHolds, isAnnotationOnly, numericBounds, ownName, titleName, typesOf, VALUE_TYPES, pascal, type Json } from './schema-keywords';

export { pascal } from './schema-keywords';


/**
 * Which way a schema is read: `input` (parameters, request bodies) leaves out `readOnly`
 * properties, which the API sets itself; `output` (results) leaves out `writeOnly` ones, which it
 * never returns.
 */
export type Direction = 'input' | 'output';

/** String formats TypeBox and ajv-formats both validate. */
const PORTABLE_FORMATS = new Set(['date', 'date-time', 'time', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uri', 'uri-reference', 'uri-template', 'uuid', 'regex', 'json-pointer', 'relative-json-pointer']);

/**
 * Turns dereferenced JSON Schemas (OpenAPI 3.0 and 3.1 dialects) into `SchemaModel`s. Objects get
 * class names from their component name, else their `title`, else the caller's hint; one schema
 * object is one model, so a component used twice is one class. A recursive reference is cut to an
 * open value, and anything the framework cannot express yet becomes `open` with the reason; both
 * are counted, never thrown.
 */
export class SchemaConverter {
  /** How many schemas became open values, by reason. */
  readonly openValues = new Map<string, number>();
  /** What the document says that could not be kept (a default of the wrong type), for the generator to print. */
  readonly warnings: string[] = [];
  private readonly models = new Map<object, SchemaModel>();
  /** Input models of schemas with a `readOnly` or `writeOnly` property somewhere: the others share their output model. */
  private readonly inputModels = new Map<object, SchemaModel>();
  /** Whether a schema has a `readOnly` or `writeOnly` property anywhere inside, by schema. */
  private readonly marked = new Map<object, boolean>();
  private direction: Direction = 'output';
  private readonly stack: object[] = [];
  /** Object models whose properties are being converted, by the schema they come from. */
  private readonly pending = new Map<object, SchemaModel>();
  private readonly usedNames = new Set<string>();
  private readonly identity = new SchemaIdentity();
  /** Object models by class name and content: a schema the document repeats is one class. */
  private readonly byNameAndContent = new Map<string, SchemaModel>();
  /** Names two different schemas of the whole document take: each gets its content's identity after it. */
  private readonly ambiguous: ReadonlySet<string>;
  /** Components' names, and, with the document, names for the unnamed schemas inside named ones (`positionNames`). */
  private readonly names: Map<object, string>;

  /**
   * `names`: the document's component names, by schema. `document`: the whole document (every
   * operation, whatever is included), read once for what makes names independent of what is
   * included: a name for each unnamed schema inside a named one (after its first place in the
   * document), and the names two different schemas would share (each then followed by its
   * content's identity).
   */
  constructor(names: ReadonlyMap<object, string> = new Map(), document?: unknown) {
    this.names = new Map(document === undefined ? names : [...names, ...positionNames(document, ownName(names), pascal)]);
    this.ambiguous = document === undefined ? new Set() : this.identity.ambiguousNames(document, ownName(this.names));
  }

  /** Class names the caller writes itself (a tool's `…Args` and `…Result`): a schema titled the same gets a name of its own. */
  reserve(names: Iterable<string>): void {
    for (const name of names) this.usedNames.add(name);
  }

  /** More schemas' own names, for schemas read after construction (an MCP tool's `$defs`, one tool at a time). */
  addNames(names: ReadonlyMap<object, string>): void {
    for (const [schema, name] of names) this.names.set(schema, name);
  }

  convert(schema: unknown, nameHint: string, direction?: Direction): SchemaModel {
    if (direction !== undefined && direction !== this.direction) {
      const outer = this.direction;
      this.direction = direction;
      try {
        return this.convert(schema, nameHint);
      } finally {
        this.direction = outer;
      }
    }
    if (typeof schema !== 'object' || schema === null || Object.keys(schema).length === 0) return this.open('any JSON value');
    // A schema met again inside itself: a recursive object is the class being built (recursive
    // types stay recursive); recursion through anything else (an array alias) is cut.
    if (this.stack.includes(schema)) return this.pending.get(schema) ?? this.open(`a recursive reference to ${this.names.get(schema) ?? nameHint}, cut here`);
    const ownInput = this.direction === 'input' && this.hasMarks(schema);
    const models = ownInput ? this.inputModels : this.models;
    const cached = models.get(schema);
    if (cached) return cached;
    this.stack.push(schema);
    try {
      const model = this.convertFresh(schema as Json, nameHint, ownInput ? 'Input' : '');
      models.set(schema, model);
      return model;
    } finally {
      this.stack.pop();
    }
  }

  private convertFresh(original: Json, nameHint: string, suffix: string): SchemaModel {
    const { schema, types, nullable } = this.fittedToExample(original, nameHint);
    // A component's or titled schema's input class is `<Name>Input`; a hint already names its parent's.
    const named = this.names.get(original) ?? titleName(schema);
    const base = this.convertBase(schema, types, named ? `${named}${suffix}` : nameHint);
    const fits = schema['default'] === undefined || defaultFits(base, schema['default']);
    if (!fits) this.warnings.push(`${nameHint}: the default ${JSON.stringify(schema['default'])} is not a value of its own type (${base.kind}); it was dropped`);
    const annotations = {
      ...(typeof schema['description'] === 'string' && { description: schema['description'] }),
      ...(schema['default'] !== undefined && fits && { default: schema['default'] }),
    };
    return Object.assign(base, annotations, nullable ? { nullable: true } : {});
  }

  private convertBase(schema: Json, types: readonly string[], name: string): SchemaModel {
    if (Array.isArray(schema['allOf'])) return this.mergeAllOf(schema, name);
    const alternatives = (schema['oneOf'] ?? schema['anyOf']) as unknown[] | undefined;
    if (Array.isArray(alternatives)) return this.union(alternatives, schema, name);
    if (Array.isArray(schema['enum']) || schema['const'] !== undefined) {
      const raw = Array.isArray(schema['enum']) ? (schema['enum'] as unknown[]) : [schema['const']];
      const values = raw.filter((v): v is string | number => typeof v === 'string' || typeof v === 'number');
      if (values.length === 0) return this.open('an enum of values other than strings and numbers');
      return { kind: 'enum', values, ...(raw.includes(null) && { nullable: true }) };
    }
    if (types.length > 1) return { kind: 'union', arms: types.map((type) => this.convertBase({ ...schema, type }, [type], name)) };
    const type = types[0] ?? (schema['properties'] || schema['additionalProperties'] ? 'object' : schema['items'] ? 'array' : undefined);
    switch (type) {
      case 'string': {
        // A format both the server's validator and strict clients' (Ajv with ajv-formats) know; others (`repo.nwo`) are dropped.
        // A format or pattern the document's own example breaks is the document's mistake: kept, it would refuse the API's real answers.
        const example = exampleOf(schema);
        const format = typeof schema['format'] === 'string' && PORTABLE_FORMATS.has(schema['format']) && this.exampleKeeps('format', schema['format'], example, name) ? { format: schema['format'] } : {};
        const pattern = typeof schema['pattern'] === 'string' && this.compiles(schema['pattern']) && this.exampleKeeps('pattern', schema['pattern'], example, name) ? { pattern: schema['pattern'] } : {};
        return { kind: 'string', ...format, ...pattern, ...this.counts(schema, ['minLength', 'maxLength'], name) };
      }
      case 'number':
      case 'integer':
        return { kind: type, ...numericBounds(this.finite(schema, name)) };
      case 'boolean':
        return { kind: 'boolean' };
      case 'array':
        return { kind: 'array', items: this.convert(schema['items'], `${name}Item`), ...this.counts(schema, ['minItems', 'maxItems'], name), ...(schema['uniqueItems'] === true && { uniqueItems: true }) };
      case 'object':
        return this.object(schema, name);
      case 'null':
        return { ...this.open('a value that can only be null'), nullable: true };
      default:
        return this.open('a schema without a type');
    }
  }

  private object(schema: Json, name: string): SchemaModel {
    const properties = (schema['properties'] ?? {}) as Record<string, unknown>;
    const additional = schema['additionalProperties'];
    if (Object.keys(properties).length === 0) {
      return { kind: 'record', values: typeof additional === 'object' && additional !== null ? this.convert(additional, `${name}Value`) : this.open('any JSON value') };
    }
    if (Object.values(properties).every((value) => this.leftOut(value) || this.emptied(value))) return { kind: 'record', values: this.open('any JSON value') };
    const base = pascal(name) || 'Value';
    const content = this.identity.of(schema);
    const same = this.byNameAndContent.get(`${base} ${content}`);
    if (same) return same;
    const className = this.uniqueName(base, content);
    const required = new Set(Array.isArray(schema['required']) ? (schema['required'] as string[]) : []);
    // Registered before its properties are converted, so a property that refers back finds it.
    const converted: PropertyModel[] = [];
    const model: SchemaModel = { kind: 'object', name: className, properties: converted };
    this.byNameAndContent.set(`${base} ${content}`, model);
    this.pending.set(this.stack[this.stack.length - 1]!, model);
    for (const [property, value] of Object.entries(properties)) {
      if (this.leftOut(value) || this.emptied(value)) continue;
      converted.push({ name: property, required: required.has(property), schema: this.convert(value, `${className}${pascal(property)}`) });
    }
    return model;
  }

  /** A property this direction leaves out: `readOnly` in an input, `writeOnly` in an output. */
  private leftOut(property: unknown): boolean {
    if (typeof property !== 'object' || property === null) return false;
    return (property as Json)[this.direction === 'input' ? 'readOnly' : 'writeOnly'] === true;
  }

  /** An object all of whose properties this direction leaves out (a connection block the API fills in): no value to send or show. */
  private emptied(schema: unknown): boolean {
    if (typeof schema !== 'object' || schema === null) return false;
    const properties = Object.values(((schema as Json)['properties'] ?? {}) as Json);
    return properties.length > 0 && properties.every((property) => this.leftOut(property));
  }

  /** Whether `schema` has a `readOnly` or `writeOnly` property anywhere inside it (cycles count as not). */
  private hasMarks(schema: object): boolean {
    const known = this.marked.get(schema);
    if (known !== undefined) return known;
    this.marked.set(schema, false);
    const json = schema as Json;
    const properties = Object.values((json['properties'] ?? {}) as Json);
    const children = [...properties, json['items'], json['additionalProperties'], ...['allOf', 'anyOf', 'oneOf'].flatMap((key) => (Array.isArray(json[key]) ? (json[key] as unknown[]) : []))];
    const own = properties.some((property) => typeof property === 'object' && property !== null && ((property as Json)['readOnly'] === true || (property as Json)['writeOnly'] === true));
    const found = own || children.some((child) => typeof child === 'object' && child !== null && this.hasMarks(child));
    this.marked.set(schema, found);
    return found;
  }

  private mergeAllOf(schema: Json, name: string): SchemaModel {
    const arms = (schema['allOf'] as unknown[]).filter((arm): arm is Json => typeof arm === 'object' && arm !== null);
    // `allOf: [{ $ref }, { description }]` (Box, DigitalOcean): the referenced type, the other parts only annotate it.
    const typed = arms.filter((arm) => !isAnnotationOnly(arm));
    if (typed.length === 1 && arms.length > 1) {
      const annotations = Object.assign({}, ...arms.filter(isAnnotationOnly)) as Json;
      const model = this.convert(typed[0], name);
      return {
        ...model,
        ...(typeof annotations['description'] === 'string' && { description: annotations['description'] }),
        ...((annotations['nullable'] === true || (Array.isArray(annotations['type']) && annotations['type'].includes('null'))) && { nullable: true }),
      };
    }
    const objectLike = arms.every((arm) => arm['type'] === 'object' || arm['properties'] !== undefined || Array.isArray(arm['allOf']));
    if (!objectLike) return arms.length === 1 ? this.convert(arms[0], name) : this.open('an allOf of schemas that are not all objects');
    const merged: Json = { type: 'object', properties: {}, required: [] };
    for (const arm of flattenAllOf(arms)) {
      Object.assign(merged['properties'] as Json, arm['properties'] ?? {});
      (merged['required'] as string[]).push(...((arm['required'] as string[] | undefined) ?? []));
    }
    Object.assign(merged['properties'] as Json, schema['properties'] ?? {});
    (merged['required'] as string[]).push(...((schema['required'] as string[] | undefined) ?? []));
    return this.object(merged, name);
  }

  private union(alternatives: unknown[], schema: Json, name: string): SchemaModel {
    const isNull = (arm: unknown) => typeof arm === 'object' && arm !== null && (arm as Json)['type'] === 'null';
    const arms = alternatives.filter((arm) => !isNull(arm));
    const nullable = arms.length < alternatives.length;
    if (arms.length === 1) return { ...this.convert(arms[0], name), ...(nullable && { nullable: true }) };
    const discriminator = ((schema['discriminator'] as Json | undefined)?.['propertyName'] as string | undefined) ?? undefined;
    return {
      kind: 'union',
      arms: arms.map((arm, index) => this.convert(arm, `${name}Option${index + 1}`)),
      ...(discriminator !== undefined && { discriminator }),
      ...(nullable && { nullable: true }),
    };
  }

  /** Whether validators can compile a pattern (TypeBox and Ajv use the `u` flag); one they cannot is dropped and counted. */
  private compiles(pattern: string): boolean {
    try {
      new RegExp(pattern, 'u');
      return true;
    } catch {
      const reason = 'a pattern validators cannot compile, dropped';
      this.openValues.set(reason, (this.openValues.get(reason) ?? 0) + 1);
      return false;
    }
  }

  /**
   * A value schema (string, number, integer, boolean) made to hold its own example, as formats and
   * patterns are: the example is what the API's authors saw it send, and a rule it breaks would
   * refuse every real answer like it (Linode documents `description` as a string with the example
   * null, `unit_price` as a string with the example 5.05, a 30-character `label` with a longer one).
   * A null example makes it nullable, an example of another JSON type adds that type, a value
   * outside an `enum` joins it, a broken length or bound is dropped; each with a warning.
   */
  private fittedToExample(schema: Json, where: string): { schema: Json; types: string[]; nullable: boolean } {
    const { types, nullable } = typesOf(schema);
    const found = 'example' in schema ? { value: schema['example'] } : Array.isArray(schema['examples']) && schema['examples'].length > 0 ? { value: schema['examples'][0] } : undefined;
    const scalar = types.length > 0 && types.every((type) => VALUE_TYPES.has(type));
    if (!found || !(scalar || Array.isArray(schema['enum'])) || schema['const'] !== undefined) return { schema, types, nullable };
    const example = found.value;
    const shown = clipped(example);
    const warn = (broken: string, done: string) => this.warnings.push(`${where}: the document's own example ${shown} breaks its ${broken}; ${done}, or every real answer like it would be refused`);
    if (example === null) {
      const enumNull = Array.isArray(schema['enum']) && (schema['enum'] as unknown[]).includes(null);
      if (!nullable && !enumNull) warn(`type (${types.join(' or ') || 'enum'}, not nullable)`, 'it was made nullable');
      return { schema, types, nullable: true };
    }
    let fitted = schema;
    if (Array.isArray(schema['enum'])) {
      const values = schema['enum'] as unknown[];
      if ((typeof example === 'string' || typeof example === 'number') && !values.includes(example)) {
        warn(`enum ${clipped(values)}`, 'the example joined the enum');
        fitted = { ...fitted, enum: [...values, example] };
      }
      return { schema: fitted, types, nullable };
    }
    const kind = typeof example === 'number' ? (Number.isInteger(example) ? 'integer' : 'number') : typeof example;
    const accepts = types.includes(kind) || (kind === 'integer' && types.includes('number'));
    let fittedTypes = types;
    if (!accepts && VALUE_TYPES.has(kind)) {
      warn(`type ${types.join(' or ')}`, `${kind} was added to it`);
      fittedTypes = [...types, kind];
    }
    const broken = (keyword: string, breaks: (bound: number) => boolean) => typeof fitted[keyword] === 'number' && breaks(fitted[keyword] as number);
    const drop = (keyword: string) => {
      warn(`${keyword} ${String(fitted[keyword])}`, `the ${keyword} was dropped`);
      const { [keyword]: _dropped, ...rest } = fitted;
      fitted = rest;
    };
    if (typeof example === 'string') {
      const length = [...example].length;
      if (broken('maxLength', (bound) => length > bound)) drop('maxLength');
      if (broken('minLength', (bound) => length < bound)) drop('minLength');
    }
    if (typeof example === 'number') {
      if (broken('maximum', (bound) => example > bound)) drop('maximum');
      if (broken('minimum', (bound) => example < bound)) drop('minimum');
      if (broken('exclusiveMaximum', (bound) => example >= bound)) drop('exclusiveMaximum');
      if (broken('exclusiveMinimum', (bound) => example <= bound)) drop('exclusiveMinimum');
    }
    return { schema: fitted, types: fittedTypes, nullable };
  }

  /** Whether the document's own string example (if any) meets `format` or `pattern`; one that does not is dropped with a warning. */
  private exampleKeeps(keyword: 'format' | 'pattern', rule: string, example: string | undefined, where: string): boolean {
    if (example === undefined) return true;
    const holds = keyword === 'pattern' ? new RegExp(rule, 'u').test(example) : formatHolds(rule, example);
    if (!holds) this.warnings.push(`${where}: the document's own example ${clipped(example)} breaks its ${keyword} ${clipped(rule)}; the ${keyword} was dropped, or every real answer like it would be refused`);
    return holds;
  }

  /**
   * The length and count keywords in `keys` that are what JSON Schema allows (non-negative whole
   * numbers); any other value is dropped with a warning naming it. They reach generated source, so
   * nothing but a checked number goes on (3.1 documents are not validated against that rule).
   */
  private counts(schema: Json, keys: readonly string[], where: string): Record<string, number> {
    const kept: Record<string, number> = {};
    for (const key of keys) {
      const value = schema[key];
      if (value === undefined) continue;
      if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) kept[key] = value;
      else this.warnings.push(`${where}: ${key} ${clipped(value)} is not a non-negative whole number; it was dropped`);
    }
    return kept;
  }

  /** `schema` with each numeric bound that is not a finite number (or, for the exclusive ones, a 3.0 boolean) dropped, with a warning. */
  private finite(schema: Json, where: string): Json {
    const kept: Json = { ...schema };
    for (const key of ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum']) {
      const value = schema[key];
      if (value === undefined || (typeof value === 'number' && Number.isFinite(value)) || (key.startsWith('exclusive') && typeof value === 'boolean')) continue;
      this.warnings.push(`${where}: ${key} ${clipped(value)} is not a finite number; it was dropped`);
      delete kept[key];
    }
    return kept;
  }

  private open(reason: string): SchemaModel {
    const kind = reason.replace(/ to \S+, cut here$/, ', cut here');
    this.openValues.set(kind, (this.openValues.get(kind) ?? 0) + 1);
    return { kind: 'open', reason };
  }

  /**
   * The class name for `base` (a component's name, a title, or where the schema is) and the
   * schema's content identity: the name alone unless two different schemas of the document take
   * it, or it is taken already, then followed by the identity (`Segment_3fa2c1d0`), which no other
   * operation's inclusion changes.
   */
  private uniqueName(base: string, content: string): string {
    const stem = base.replace(/Input$/, '');
    let candidate = this.ambiguous.has(base) || this.ambiguous.has(stem) || this.usedNames.has(base) ? `${base}_${content}` : base;
    for (let n = 2; this.usedNames.has(candidate); n++) candidate = `${base}_${content}${n}`;
    this.usedNames.add(candidate);
    return candidate;
  }
}
