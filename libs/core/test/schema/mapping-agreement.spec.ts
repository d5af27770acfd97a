import 'reflect-metadata';
import { validateSync } from 'class-validator';
import {
  ArrayMaxSize, ArrayMinSize, ArrayNotEmpty, ArrayUnique, IsEmail, IsEnum, IsIn, IsInt, IsISO8601, IsNotEmpty, IsOptional,
  IsPositive, IsRFC3339, IsUrl, IsUUID, Length, Matches, Max, MaxLength, Min, MinLength,
} from 'class-validator';
import { Field, Result, Tool, ToolResult, Toolset, runContractGate } from '../../src';

enum Color {
  Red = 'red',
  Blue = 'blue',
}

/**
 * One row per line of the README's decorator → schema table: a value class-validator accepts must
 * also pass the schema the decorator maps to, or results that class-validator calls valid would be
 * refused at run time.
 */
const rows: [string, (cls: { prototype: object }) => void, unknown][] = [
  ['@IsInt()', (c) => (Field(() => Number)(c.prototype, 'v'), IsInt()(c.prototype, 'v')), 3],
  ['@Min(1) @Max(10)', (c) => (Field(() => Number)(c.prototype, 'v'), Min(1)(c.prototype, 'v'), Max(10)(c.prototype, 'v')), 10],
  ['@IsPositive()', (c) => (Field(() => Number)(c.prototype, 'v'), IsPositive()(c.prototype, 'v')), 0.5],
  ['@MinLength(2) @MaxLength(3)', (c) => (Field(() => String)(c.prototype, 'v'), MinLength(2)(c.prototype, 'v'), MaxLength(3)(c.prototype, 'v')), 'abc'],
  ['@Length(1, 3)', (c) => (Field(() => String)(c.prototype, 'v'), Length(1, 3)(c.prototype, 'v')), 'ab'],
  ['@IsNotEmpty()', (c) => (Field(() => String)(c.prototype, 'v'), IsNotEmpty()(c.prototype, 'v')), 'x'],
  ['@Matches(/^a+$/)', (c) => (Field(() => String)(c.prototype, 'v'), Matches(/^a+$/)(c.prototype, 'v')), 'aaa'],
  ['@IsIn([...])', (c) => (Field(() => String)(c.prototype, 'v'), IsIn(['a', 'b'])(c.prototype, 'v')), 'b'],
  ['@IsEnum(E)', (c) => (Field(() => String)(c.prototype, 'v'), IsEnum(Color)(c.prototype, 'v')), 'blue'],
  ['@IsEmail()', (c) => (Field(() => String)(c.prototype, 'v'), IsEmail()(c.prototype, 'v')), 'ada.lovelace+x@example.co.uk'],
  ['@IsUrl() (any URL)', (c) => (Field(() => String)(c.prototype, 'v'), IsUrl()(c.prototype, 'v')), 'example.com/path'],
  ['@IsUrl({ require_protocol: true })', (c) => (Field(() => String)(c.prototype, 'v'), IsUrl({ require_protocol: true })(c.prototype, 'v')), 'https://example.com/a?b=c'],
  ['@IsUUID()', (c) => (Field(() => String)(c.prototype, 'v'), IsUUID()(c.prototype, 'v')), '123e4567-e89b-12d3-a456-426614174000'],
  ['@IsISO8601() with a date only', (c) => (Field(() => String)(c.prototype, 'v'), IsISO8601()(c.prototype, 'v')), '2026-01-01'],
  ['@IsISO8601() with a date-time', (c) => (Field(() => String)(c.prototype, 'v'), IsISO8601()(c.prototype, 'v')), '2026-01-01T10:00:00Z'],
  ['@IsRFC3339()', (c) => (Field(() => String)(c.prototype, 'v'), IsRFC3339()(c.prototype, 'v')), '2026-01-01T10:00:00.5+01:00'],
  ['@ArrayMinSize(1) @ArrayMaxSize(3) @ArrayUnique()', (c) => (Field(() => [String])(c.prototype, 'v'), ArrayMinSize(1)(c.prototype, 'v'), ArrayMaxSize(3)(c.prototype, 'v'), ArrayUnique()(c.prototype, 'v')), ['a', 'b']],
  ['@ArrayNotEmpty()', (c) => (Field(() => [String])(c.prototype, 'v'), ArrayNotEmpty()(c.prototype, 'v')), ['a']],
  ['@MaxLength(3, { each: true })', (c) => (Field(() => [String])(c.prototype, 'v'), MaxLength(3, { each: true })(c.prototype, 'v')), ['abc', 'de']],
  ['@IsOptional() (absent)', (c) => (Field(() => String)(c.prototype, 'v'), IsOptional()(c.prototype, 'v')), undefined],
  ["@Field({ format: 'date' })", (c) => Field(() => String, { format: 'date' })(c.prototype, 'v'), '2026-01-31'],
  ['@Field({ nullable: true })', (c) => Field(() => String, { nullable: true })(c.prototype, 'v'), null],
];

describe('each mapping in the README table: what class-validator accepts, the schema accepts', () => {
  it.each(rows)('%s', (_row, decorate, value) => {
    class Row extends ToolResult {}
    decorate(Row);
    Result({ description: 'row' })(Row);
    class RowToolset {
      get() {
        return { message: 'm' };
      }
    }
    Tool({ description: 'row', returns: Row })(RowToolset.prototype, 'get', Object.getOwnPropertyDescriptor(RowToolset.prototype, 'get')!);
    Toolset({ description: 'rows' })(RowToolset);

    const instance = Object.assign(new Row(), { message: 'm', ...(value !== undefined && { v: value }) });
    expect(validateSync(instance)).toEqual([]);
    const tool = runContractGate('rows', [RowToolset]).tools.get('get')!;
    expect(Object.keys((tool.descriptor.outputSchema as { properties: object }).properties)).toEqual(['message', 'v']);
    const payload = { message: 'm', ...(value !== undefined && { v: value }) };
    expect([...tool.ok.validator.Errors(payload)]).toEqual([]);
  });

  it('reports a date-only value against @Field({ format: "date" }) as valid and a date-time as not', () => {
    class Day extends ToolResult {
      @Field({ format: 'date' })
      day!: string;
    }
    @Toolset({ description: 'days' })
    class DayToolset {
      @Tool({ description: 'day', returns: Day })
      get(): Day {
        return { message: 'm', day: '2026-01-31' };
      }
    }
    const tool = runContractGate('days', [DayToolset]).tools.get('get')!;
    expect(tool.ok.validator.Check({ message: 'm', day: '2026-01-31' })).toBe(true);
    expect(tool.ok.validator.Check({ message: 'm', day: '2026-01-31T10:00:00Z' })).toBe(false);
  });
});
