import 'reflect-metadata';
import fc from 'fast-check';
import { plainToInstance, Transform, Type, type TargetMap } from 'class-transformer';
import { IsOptional } from 'class-validator';
import { Field } from '../../src';
import { compileMaterializer } from '../../src/compiled/args-materializer';
import { ClassModelBuilder } from '../../src/schema/class-model-builder';
import type { ClassModel, TypeModel } from '../../src/schema/type-model';
import type { ClassType } from '../../src/types/class-type';

/** A DTO shape: fields of scalar, date, free-object, nested-DTO and array types, some with initialisers. */
type FieldShape =
  | { kind: 'string' | 'number' | 'boolean' | 'date' | 'object' }
  | { kind: 'enum'; values: string[] }
  | { kind: 'dto'; shape: ClassShape }
  | { kind: 'array'; items: FieldShape };
interface ClassShape {
  fields: { name: string; type: FieldShape; optional: boolean; initial?: unknown }[];
}

const NAMES = ['id', 'name', 'count', 'tags', 'since', 'owner', 'items', 'meta', 'flag', 'kind', 'valueOf2', 'toStringy'];
/** Keys a free object may carry that a plain object already has, or that JSON.parse makes own. */
const AWKWARD_KEYS = ['toString', 'valueOf', 'hasOwnProperty', '__proto__', 'a', 'b', 'then2'];

const scalarShape: fc.Arbitrary<FieldShape> = fc.oneof(
  fc.constantFrom<FieldShape>({ kind: 'string' }, { kind: 'number' }, { kind: 'boolean' }, { kind: 'date' }, { kind: 'object' }),
  fc.uniqueArray(fc.constantFrom('eu', 'us', 'apac'), { minLength: 1, maxLength: 3 }).map((values): FieldShape => ({ kind: 'enum', values })),
);

const { classShape } = fc.letrec<{ classShape: ClassShape; fieldShape: FieldShape }>((tie) => ({
  fieldShape: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalarShape,
    tie('classShape').map((shape): FieldShape => ({ kind: 'dto', shape: shape as ClassShape })),
    tie('fieldShape').map((items): FieldShape => ({ kind: 'array', items: items as FieldShape })),
  ),
  classShape: fc
    .uniqueArray(fc.record({ name: fc.constantFrom(...NAMES), type: tie('fieldShape') as fc.Arbitrary<FieldShape>, optional: fc.boolean(), initial: fc.boolean() }), {
      selector: (field) => field.name,
      minLength: 1,
      maxLength: 5,
    })
    .map((fields) => ({ fields: fields.map((field) => ({ ...field, initial: field.initial ? initialFor(field.type) : undefined })) })),
}));

function initialFor(type: FieldShape): unknown {
  if (type.kind === 'string') return 'default';
  if (type.kind === 'number') return 7;
  if (type.kind === 'boolean') return true;
  if (type.kind === 'enum') return type.values[0];
  if (type.kind === 'array') return [];
  return undefined;
}

let classCount = 0;

/** Makes a real decorated class for a shape: the decorators run as the compiler would run them. */
function classFor(shape: ClassShape): ClassType {
  const fields = shape.fields;
  const cls = class {
    constructor() {
      for (const field of fields) if (field.initial !== undefined) (this as Record<string, unknown>)[field.name] = wire(field.initial);
    }
  };
  Object.defineProperty(cls, 'name', { value: `Generated${++classCount}` });
  for (const field of fields) {
    Reflect.defineMetadata('design:type', Object, cls.prototype, field.name);
    Field(thunkFor(field.type) as never)(cls.prototype, field.name);
    if (field.optional) IsOptional()(cls.prototype, field.name);
  }
  return cls;
}

function thunkFor(type: FieldShape): () => unknown {
  const spec = specFor(type);
  return () => spec;
}

function specFor(type: FieldShape): unknown {
  switch (type.kind) {
    case 'string':
      return String;
    case 'number':
      return Number;
    case 'boolean':
      return Boolean;
    case 'date':
      return Date;
    case 'object':
      return Object;
    case 'enum':
      return Object.fromEntries(type.values.map((value) => [value, value]));
    case 'dto':
      return classFor(type.shape);
    case 'array':
      return [specFor(type.items)];
  }
}

/** A JSON value the input schema of `type` accepts, as it arrives on the wire. */
function valueFor(type: TypeModel): fc.Arbitrary<unknown> {
  switch (type.kind) {
    case 'string':
      return fc.string({ maxLength: 6 });
    case 'number':
    case 'integer':
      return fc.integer();
    case 'boolean':
      return fc.boolean();
    case 'date':
      return fc.date({ noInvalidDate: true, min: new Date(0), max: new Date(4e12) }).map((date) => date.toISOString());
    case 'enum':
      return fc.constantFrom(...type.values);
    case 'json-object':
      return fc.dictionary(fc.constantFrom(...AWKWARD_KEYS), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 });
    case 'array':
      return fc.array(valueFor(type.items), { maxLength: 3 });
    case 'object':
      return objectFor(type.model);
    default:
      return fc.jsonValue({ maxDepth: 1 });
  }
}

function objectFor(model: ClassModel): fc.Arbitrary<Record<string, unknown>> {
  const entries = model.fields.map((field) => (field.optional ? fc.option(valueFor(field.type), { nil: undefined, freq: 3 }) : valueFor(field.type)).map((value) => [field.name, value] as const));
  // Absent optional keys stay absent; key order varies as it does on the wire.
  return fc
    .tuple(...entries)
    .chain((pairs) => fc.shuffledSubarray(pairs, { minLength: pairs.length, maxLength: pairs.length }))
    .map((pairs) => JSON.parse(JSON.stringify(Object.fromEntries(pairs.filter(([, value]) => value !== undefined)))) as Record<string, unknown>);
}

/** What class-transformer alone builds: the reference the compiled path must equal. */
function viaClassTransformer(model: ClassModel, value: Record<string, unknown>): unknown {
  const maps = new Map<ClassType, TargetMap>();
  const walk = (current: ClassModel) => {
    if (maps.has(current.cls)) return;
    const properties: Record<string, ClassType> = {};
    maps.set(current.cls, { target: current.cls, properties });
    for (const field of current.fields) {
      let type = field.type;
      while (type.kind === 'array') type = type.items;
      if (type.kind === 'date') properties[field.name] = Date;
      if (type.kind === 'object') {
        properties[field.name] = type.model.cls;
        walk(type.model);
      }
    }
  };
  walk(model);
  return plainToInstance(model.cls as new () => object, value, { exposeDefaultValues: true, targetMaps: [...maps.values()] });
}

/** A value with everything equality must see: classes, key order, own keys set to undefined, dates. */
function exactly(value: unknown): unknown {
  if (value instanceof Date) return { date: Number.isNaN(value.getTime()) ? 'invalid' : value.toISOString() };
  if (Array.isArray(value)) return { array: value.map(exactly) };
  if (typeof value === 'object' && value !== null) {
    return { class: Object.getPrototypeOf(value)?.constructor?.name ?? null, keys: Object.keys(value).map((key) => [key, exactly((value as Record<string, unknown>)[key])]) };
  }
  return { value };
}

function modelOf(cls: ClassType): ClassModel {
  const builder = new ClassModelBuilder();
  const model = builder.build(cls, { toolset: 'generated', tool: 'generated' }, 'args');
  if (!model) throw new Error(builder.violations.map((violation) => violation.message).join('\n'));
  return model;
}

describe('argument materialisation', () => {
  it('builds the same instances as class-transformer for any DTO it compiles', () => {
    fc.assert(
      fc.property(
        classShape.chain((shape) => {
          const model = modelOf(classFor(shape));
          return fc.tuple(fc.constant(model), objectFor(model));
        }),
        ([model, value]) => {
          const materialize = compileMaterializer(model);
          expect(materialize.path).toEqual({ kind: 'compiled' });
          expect(exactly(materialize(wire(value)))).toEqual(exactly(viaClassTransformer(model, wire(value))));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('gives what class-transformer gives for values no input schema lets through', () => {
    class Inner {
      @Field()
      @IsOptional()
      label?: string = 'none';
    }
    class Outer {
      @Field(() => Object)
      @IsOptional()
      meta?: Record<string, unknown>;

      @Field(() => [Inner])
      @IsOptional()
      inners?: Inner[];
    }
    const model = modelOf(Outer);
    const materialize = compileMaterializer(model);
    expect(materialize.path).toEqual({ kind: 'compiled' });
    const cases: Record<string, unknown>[] = [
      { undeclared: 1, meta: { a: 1 } },
      { meta: JSON.parse('{"__proto__": {"polluted": true}, "toString": 1, "kept": [1, {"b": null}]}') },
      { meta: { nested: new Inner() } },
      { inners: [{ label: undefined }] },
      { meta: { when: new Date(5) } },
    ];
    for (const value of cases) expect(exactly(materialize(structuredCloneKeepingClasses(value)))).toEqual(exactly(viaClassTransformer(model, structuredCloneKeepingClasses(value))));
    // class-transformer builds `value.constructor` for a key named constructor, and throws: so does the compiled path.
    const hostile = { meta: JSON.parse('{"constructor": "x"}') };
    expect(() => viaClassTransformer(model, hostile)).toThrow(TypeError);
    expect(() => materialize(hostile)).toThrow(TypeError);
  });

  it("uses class-transformer itself for DTOs with its own decorators, and says why", () => {
    class Trimmed {
      @Field()
      @Transform(({ value }) => (typeof value === 'string' ? value.trim() : value))
      name!: string;
    }
    class Leaf {
      @Field()
      when!: string;
    }
    class Typed {
      @Field(() => [Leaf])
      @Type(() => Leaf)
      leaves!: Leaf[];
    }
    class Wrapper {
      @Field(() => Trimmed)
      inner!: Trimmed;
    }
    expect(compileMaterializer(modelOf(Trimmed)).path).toEqual({ kind: 'class-transformer', reason: "'name' of 'Trimmed' has @Transform" });
    expect(compileMaterializer(modelOf(Typed)).path).toEqual({ kind: 'class-transformer', reason: "'leaves' of 'Typed' has @Type" });
    expect(compileMaterializer(modelOf(Wrapper)).path).toEqual({ kind: 'class-transformer', reason: "'name' of 'Trimmed' has @Transform" });
    expect(compileMaterializer(modelOf(Wrapper))({ inner: { name: '  padded ' } })).toEqual(Object.assign(new Wrapper(), { inner: Object.assign(new Trimmed(), { name: 'padded' }) }));
  });
});

/** A JSON value as a fresh copy, as the transport hands it over (own `__proto__` and `toString` keys kept). */
function wire<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** A deep copy that keeps class instances (what the wire never sends, but a caller in process can). */
function structuredCloneKeepingClasses<T>(value: T): T {
  if (Array.isArray(value)) return value.map(structuredCloneKeepingClasses) as T;
  if (value instanceof Date) return new Date(value.getTime()) as T;
  if (typeof value === 'object' && value !== null) {
    const copy = Object.create(Object.getPrototypeOf(value)) as Record<string, unknown>;
    for (const key of Object.keys(value)) Object.defineProperty(copy, key, { value: structuredCloneKeepingClasses((value as Record<string, unknown>)[key]), enumerable: true, writable: true, configurable: true });
    return copy as T;
  }
  return value;
}
