import 'reflect-metadata';
import { IsIn, IsOptional, Matches } from 'class-validator';
import { buildServer, ContractError, Field, InvalidPatternError, NoExplicitTypeError, Result, Tool, ToolResult, Toolset, ValidationWithoutFieldError, type ClassType } from '../../src';
import { connectLegacyClient, connectLegacyClientToFactory } from '../support/connect';

function violationsOf(...toolsets: ClassType[]) {
  try {
    buildServer({ name: 'mistakes', version: '0', toolsets });
  } catch (error) {
    expect(error).toBeInstanceOf(ContractError);
    return (error as ContractError).violations;
  }
  throw new Error('the gate let the toolset through');
}

describe('mistakes a toolset author makes are caught at startup', () => {
  it('refuses a property with validation decorators but no @Field, instead of dropping it silently', () => {
    class Wind {
      @Field()
      speed!: number;

      @IsIn(['N', 'E', 'S', 'W'])
      direction!: string;
    }
    @Result({ description: 'Weather.' })
    class ForecastDay extends ToolResult {
      @Field(() => Wind)
      wind!: Wind;

      @IsOptional()
      note?: string;
    }
    @Toolset({ description: 'Weather.' })
    class WeatherToolset {
      @Tool({ description: 'Forecast.', returns: ForecastDay })
      forecast(): ForecastDay {
        return { message: 'm', wind: { speed: 1, direction: 'N' } };
      }
    }
    const violations = violationsOf(WeatherToolset);
    expect(violations.map((v) => v.constructor)).toEqual([ValidationWithoutFieldError, ValidationWithoutFieldError]);
    expect(violations.map((v) => v.message)).toEqual([
      expect.stringContaining("[toolset 'weather' > tool 'forecast' > ForecastDay.note] 'note' of 'ForecastDay' has validation decorators (@IsOptional) but no @Field()"),
      expect.stringContaining("ForecastDay.wind.direction] 'direction' of 'Wind' has validation decorators (@IsIn) but no @Field(), so it would vanish"),
    ]);
    expect(violations[1].fix).toBe("add @Field() to 'direction' (with a type thunk where needed), or remove the decorators.");
  });

  it('recommends { nullable: true } for a T | null property', () => {
    @Result({ description: 'Maybe a note.' })
    class NoteResult extends ToolResult {
      @Field()
      note!: string | null;
    }
    @Toolset({ description: 'Notes.' })
    class NoteToolset {
      @Tool({ description: 'Note.', returns: NoteResult })
      note(): NoteResult {
        return { message: 'm', note: null };
      }
    }
    const [violation] = violationsOf(NoteToolset);
    expect(violation).toBeInstanceOf(NoExplicitTypeError);
    expect(violation.fix).toContain('for `T | null`, `@Field(() => String, { nullable: true })`');
  });
});

describe('@Field({ nullable: true })', () => {
  @Result({ description: 'A note that may be null.' })
  class NoteResult extends ToolResult {
    @Field(() => String, { nullable: true, description: 'The note, or null when there is none.' })
    note!: string | null;
  }
  @Toolset({ description: 'Notes.' })
  class NoteToolset {
    @Tool({ description: 'Note.', returns: NoteResult })
    note(): NoteResult {
      return { message: 'No note.', note: null };
    }
  }

  it('advertises anyOf [T, null] and sends null to a client that validates with Ajv', async () => {
    const server = buildServer({ name: 'notes', version: '0', toolsets: [NoteToolset] });
    expect(server.catalog.tools.get('note')!.descriptor.outputSchema!['properties']).toEqual({
      message: expect.any(Object),
      note: { description: 'The note, or null when there is none.', anyOf: [{ type: 'string' }, { type: 'null' }] },
    });
    const client = await connectLegacyClient(server);
    await client.listTools();
    const result = await client.callTool({ name: 'note', arguments: {} });
    await client.close();
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ message: 'No note.', note: null });
  });

  it('is what that client checks: a number where the note goes is rejected (negative control)', async () => {
    const server = buildServer({ name: 'notes', version: '0', toolsets: [NoteToolset] });
    const client = await connectLegacyClientToFactory((context) => {
      const sdkServer = server.serverFactory({})(context);
      sdkServer.setRequestHandler('tools/call', () => ({ content: [], structuredContent: { message: 'm', note: 7 } }));
      return sdkServer;
    });
    await client.listTools();
    await expect(client.callTool({ name: 'note', arguments: {} })).rejects.toThrow('Structured content does not match the tool');
    await client.close();
  });
});

describe('patterns', () => {
  it('refuses at startup a pattern no validator can compile, though validators are compiled on first use', () => {
    class CodeArgs {
      @Field()
      @Matches(/[\w-.]+/)
      code!: string;
    }
    @Toolset({ description: 'Codes.' })
    class CodeToolset {
      @Tool({ description: 'Code.', args: CodeArgs, returns: ToolResult })
      check(): ToolResult {
        return { message: 'ok' };
      }
    }
    const [violation] = violationsOf(CodeToolset);
    expect(violation).toBeInstanceOf(InvalidPatternError);
    expect(violation.message).toContain('The pattern "[\\\\w-.]+" at /inputSchema/properties/code of the tool\'s schema is not a regular expression validators can compile with the `u` flag');
  });
});
