import 'reflect-metadata';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsEmail,
  IsEnum,
  IsIn,
  IsInt,
  IsRFC3339,
  IsOptional,
  IsUrl,
  IsUUID,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';
import { Type } from 'typebox';
import { Field, Result, Tool, ToolError, ToolResult, Toolset, unionOf } from '../../src';
import { describeTools, MESSAGE_PROPERTY } from '../support/describe-tools';

function outputSchemaOf(result: new () => ToolResult): unknown {
  @Toolset({ name: 'schemas' })
  class SchemaToolset {
    @Tool({ description: 'Returns the result under test.', returns: result })
    probe(): ToolResult {
      return { message: '' };
    }
  }
  return describeTools(SchemaToolset)['probe'].outputSchema;
}

describe('output schemas', () => {
  it('reflects scalar properties, with descriptions and the class name as title', () => {
    @Result({ description: 'Counts of things.' })
    class CountResult extends ToolResult {
      @Field({ description: 'How many.' })
      @IsInt()
      count!: number;

      @Field()
      ratio!: number;

      @Field()
      label!: string;

      @Field()
      done!: boolean;
    }

    expect(outputSchemaOf(CountResult)).toEqual({
      type: 'object',
      title: 'CountResult',
      description: 'Counts of things.',
      properties: {
        message: MESSAGE_PROPERTY,
        count: { type: 'integer', description: 'How many.' },
        ratio: { type: 'number' },
        label: { type: 'string' },
        done: { type: 'boolean' },
      },
      required: ['message', 'count', 'ratio', 'label', 'done'],
    });
  });

  it('leaves @IsOptional properties out of required and never closes the object', () => {
    class MaybeResult extends ToolResult {
      @Field()
      @IsOptional()
      account?: string;
    }

    const schema = outputSchemaOf(MaybeResult) as Record<string, unknown>;
    expect(schema).toEqual({
      type: 'object',
      title: 'MaybeResult',
      properties: { message: MESSAGE_PROPERTY, account: { type: 'string' } },
      required: ['message'],
    });
    expect(schema).not.toHaveProperty('additionalProperties');
  });

  it('inlines nested DTOs and arrays of DTOs, with no $ref or $defs', () => {
    class Location {
      @Field()
      city!: string;

      @Field()
      @IsOptional()
      zip?: string;
    }
    class Match {
      @Field()
      @Min(0)
      @Max(1)
      score!: number;

      @Field()
      location!: Location;
    }
    class SearchResult extends ToolResult {
      @Field(() => [Match], { description: 'Best first.' })
      @ArrayMinSize(1)
      @ArrayMaxSize(10)
      matches!: Match[];

      @Field(() => [String])
      @MinLength(2, { each: true })
      tags!: string[];
    }

    const location = {
      type: 'object',
      title: 'Location',
      properties: { city: { type: 'string' }, zip: { type: 'string' } },
      required: ['city'],
    };
    const schema = outputSchemaOf(SearchResult);
    expect(schema).toEqual({
      type: 'object',
      title: 'SearchResult',
      properties: {
        message: MESSAGE_PROPERTY,
        matches: {
          type: 'array',
          description: 'Best first.',
          minItems: 1,
          maxItems: 10,
          items: {
            type: 'object',
            title: 'Match',
            properties: { score: { type: 'number', minimum: 0, maximum: 1 }, location },
            required: ['score', 'location'],
          },
        },
        tags: { type: 'array', items: { type: 'string', minLength: 2 } },
      },
      required: ['message', 'matches', 'tags'],
    });
    expect(JSON.stringify(schema)).not.toMatch(/\$ref|\$defs|\$schema/);
  });

  it('turns enums, @IsEnum and @IsIn into enum keywords', () => {
    enum Color {
      Red = 'red',
      Blue = 'blue',
    }
    enum Level {
      Low,
      High,
    }
    class PaletteResult extends ToolResult {
      @Field(() => Color)
      color!: Color;

      @Field()
      @IsEnum(Level)
      level!: Level;

      @Field()
      @IsIn(['s', 'm', 'l'])
      size!: string;

      @Field(() => [Color])
      history!: Color[];
    }

    expect(outputSchemaOf(PaletteResult)).toEqual({
      type: 'object',
      title: 'PaletteResult',
      properties: {
        message: MESSAGE_PROPERTY,
        color: { type: 'string', enum: ['red', 'blue'] },
        level: { type: 'number', enum: [0, 1] },
        size: { type: 'string', enum: ['s', 'm', 'l'] },
        history: { type: 'array', items: { type: 'string', enum: ['red', 'blue'] } },
      },
      required: ['message', 'color', 'level', 'size', 'history'],
    });
  });

  it('maps string validators to format, pattern and length keywords, and Date to date-time', () => {
    class ContactResult extends ToolResult {
      @Field()
      @IsEmail()
      email!: string;

      @Field()
      @IsUrl({ require_protocol: true })
      homepage!: string;

      @Field()
      @IsUUID()
      id!: string;

      @Field()
      @IsRFC3339()
      seenAt!: string;

      @Field()
      createdAt!: Date;

      @Field()
      @Matches(/^[a-z]+$/)
      @MinLength(3)
      @MaxLength(20)
      handle!: string;
    }

    expect(outputSchemaOf(ContactResult)).toEqual({
      type: 'object',
      title: 'ContactResult',
      properties: {
        message: MESSAGE_PROPERTY,
        email: { type: 'string', format: 'email' },
        homepage: { type: 'string', format: 'uri' },
        id: { type: 'string', format: 'uuid' },
        seenAt: { type: 'string', format: 'date-time' },
        createdAt: { type: 'string', format: 'date-time' },
        handle: { type: 'string', pattern: '^[a-z]+$', minLength: 3, maxLength: 20 },
      },
      required: ['message', 'email', 'homepage', 'id', 'seenAt', 'createdAt', 'handle'],
    });
  });

  it('advertises [XResult, ToolError] as an object-rooted anyOf of both arms', () => {
    @Result({ description: 'The account found.' })
    class LookupResult extends ToolResult {
      @Field()
      account!: string;
    }

    @Toolset({ name: 'lookup' })
    class LookupToolset {
      @Tool({ description: 'Look up an account.', returns: [LookupResult, ToolError] })
      lookup(): LookupResult | ToolError {
        return new ToolError('not_found', 'No account.');
      }
    }

    expect(describeTools(LookupToolset)['lookup'].outputSchema).toEqual({
      type: 'object',
      title: 'LookupResult',
      description: 'The account found.',
      anyOf: [
        {
          type: 'object',
          title: 'LookupResult',
          description: 'The account found.',
          properties: { message: MESSAGE_PROPERTY, account: { type: 'string' } },
          required: ['message', 'account'],
        },
        {
          type: 'object',
          title: 'ToolError',
          description: 'The tool could not do what was asked; `detail` says why and what to do next.',
          properties: {
            error: { type: 'string', description: 'A short machine-readable kind, e.g. "not_found" or "invalid_input".' },
            detail: { type: 'string', description: 'What happened and what to do next.' },
          },
          required: ['error', 'detail'],
        },
      ],
    });
  });

  it('accepts unions of classes and raw TypeBox schemas as field types', () => {
    class Cat {
      @Field()
      meows!: boolean;
    }
    class Dog {
      @Field()
      barks!: boolean;
    }
    class PetResult extends ToolResult {
      @Field(() => unionOf(Cat, Dog))
      pet!: Cat | Dog;

      @Field(() => Type.Union([Type.String(), Type.Number()]))
      code!: string | number;
    }

    expect(outputSchemaOf(PetResult)).toEqual({
      type: 'object',
      title: 'PetResult',
      properties: {
        message: MESSAGE_PROPERTY,
        pet: {
          anyOf: [
            { type: 'object', title: 'Cat', properties: { meows: { type: 'boolean' } }, required: ['meows'] },
            { type: 'object', title: 'Dog', properties: { barks: { type: 'boolean' } }, required: ['barks'] },
          ],
        },
        code: { anyOf: [{ type: 'string' }, { type: 'number' }] },
      },
      required: ['message', 'pet', 'code'],
    });
  });

  it('lets a subclass redescribe message while keeping it a required string', () => {
    class Described extends ToolResult {
      @Field({ description: 'A one-line summary.' })
      override message!: string;
    }
    expect(outputSchemaOf(Described)).toEqual({
      type: 'object',
      title: 'Described',
      properties: { message: { type: 'string', description: 'A one-line summary.' } },
      required: ['message'],
    });
  });
});
