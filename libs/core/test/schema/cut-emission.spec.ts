import 'reflect-metadata';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { IsOptional } from 'class-validator';
import { Field } from '../../src';
import { ClassModelBuilder } from '../../src/schema/class-model-builder';
import { emitClass, emitClassWithin } from '../../src/schema/schema-emitter';
import type { ClassModel } from '../../src/schema/type-model';
import type { ClassType } from '../../src/types/class-type';

enum Status {
  Open = 'open',
  Closed = 'closed',
}

class Person {
  @Field({ description: 'Who.' })
  name!: string;

  @Field(() => Person, { nullable: true })
  @IsOptional()
  manager?: Person | null;
}

class Line {
  @Field({ description: 'What was bought.' })
  item!: string;

  @Field(() => [Number])
  amounts!: number[];

  @Field(() => Person)
  @IsOptional()
  buyer?: Person;
}

class Invoice {
  @Field()
  id!: string;

  @Field(() => Status)
  status!: Status;

  @Field()
  issued!: Date;

  @Field(() => [Line], { nullable: true })
  lines!: Line[] | null;

  @Field(() => Person)
  from!: Person;

  @Field(() => Person)
  to!: Person;

  @Field(() => [[Line]])
  @IsOptional()
  pages?: Line[][];
}

function modelOf(cls: ClassType): ClassModel {
  const builder = new ClassModelBuilder();
  const model = builder.build(cls, { toolset: 'cuts', tool: 'cuts' });
  if (!model) throw new Error(builder.violations.map((violation) => violation.message).join('\n'));
  return model;
}

const note = 'cut to fit';
const person = { name: 'Ada', manager: { name: 'Grace', manager: null } };
const invoice = {
  id: 'in_1',
  status: 'open',
  issued: '2026-12-03T00:00:00Z',
  lines: [{ item: 'tea', amounts: [1, 2], buyer: person }],
  from: person,
  to: { name: 'Bob' },
  pages: [[{ item: 'cake', amounts: [] }]],
};

describe('a class schema written down to a depth (emitClassWithin)', () => {
  it('is, at unlimited depth, byte for byte the whole schema the validators are compiled from', () => {
    for (const cls of [Invoice, Line, Person]) {
      for (const direction of ['output', 'input'] as const) {
        const whole = emitClassWithin(modelOf(cls), direction, Infinity, note, Infinity);
        expect(whole?.cut).toBe(false);
        expect(JSON.stringify(whole?.schema)).toBe(JSON.stringify(emitClass(modelOf(cls), direction)));
      }
    }
  });

  it('at every depth compiles under strict Ajv 2020, accepts what the whole schema accepts, and once deep enough cuts nothing', () => {
    const ajv = new Ajv2020({ strict: true });
    addFormats(ajv);
    const cuts: boolean[] = [];
    for (let depth = 0; depth <= 5; depth++) {
      const level = emitClassWithin(modelOf(Invoice), 'output', depth, note, Infinity)!;
      expect(ajv.compile(level.schema as object)(invoice)).toBe(true);
      cuts.push(level.cut);
    }
    // Person refers to itself: its $defs entry is whole from the depth it is first met.
    expect(cuts).toEqual([true, true, true, false, false, false]);
  });

  it('opens what lies below the depth into values of the same JSON type that name the cut class', () => {
    const top = emitClassWithin(modelOf(Invoice), 'output', 0, note, Infinity)!;
    const properties = (top.schema as { properties: Record<string, Record<string, unknown>> }).properties;
    expect(top.cut).toBe(true);
    expect(properties['from']).toEqual({ type: 'object', description: '(Person, cut to fit)' });
    expect(properties['pages']).toEqual({ type: 'array', description: '(cut to fit)' });
    expect(properties['status']).toEqual({ type: 'string', enum: ['open', 'closed'] });
    expect(properties['issued']).toEqual({ type: 'string', format: 'date-time' });
    expect(top.schema).not.toHaveProperty('$defs');
    // One level more: Person is referenced twice, so it is written once under $defs.
    const next = emitClassWithin(modelOf(Invoice), 'output', 1, note, Infinity)!;
    expect((next.schema as { properties: Record<string, unknown> }).properties['from']).toEqual({ $ref: '#/$defs/Person' });
    expect(Object.keys((next.schema as { $defs: object }).$defs)).toEqual(['Person']);
  });

  it('stops and gives nothing once it outgrows its node allowance, so a huge class graph costs no more than the allowance', () => {
    expect(emitClassWithin(modelOf(Invoice), 'output', Infinity, note, 5)).toBeUndefined();
    expect(emitClassWithin(modelOf(Invoice), 'output', 0, note, 30)).toBeDefined();
  });
});
