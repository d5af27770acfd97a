import 'reflect-metadata';
import Ajv2020 from 'ajv/dist/2020';
import AjvDraft07 from 'ajv';
import addFormats from 'ajv-formats';
import { ArrayMinSize, IsEmail, IsEnum, IsInt, IsOptional, IsUUID, Matches, Min } from 'class-validator';
import { Field, Result, Tool, ToolError, ToolResult, Toolset, unionOf } from '../../src';
import { describeTools } from '../support/describe-tools';

enum Status {
  Open = 'open',
  Closed = 'closed',
}
class Owner {
  @Field()
  @IsEmail()
  email!: string;
}
class Label {
  @Field()
  name!: string;
}
@Result({ description: 'A ticket.' })
class TicketResult extends ToolResult {
  @Field()
  @IsUUID()
  id!: string;

  @Field(() => Status)
  status!: Status;

  @Field()
  owner!: Owner;

  @Field(() => [Label])
  @ArrayMinSize(0)
  labels!: Label[];

  @Field()
  @IsOptional()
  @IsInt()
  @Min(0)
  votes?: number;

  @Field()
  openedAt!: Date;

  @Field(() => unionOf(Owner, Label))
  @IsOptional()
  assignee?: Owner | Label;
}
class TicketArgs {
  @Field()
  @Matches(/^T-\d+$/)
  ticket!: string;

  @Field()
  @IsOptional()
  @IsEnum(Status)
  status?: Status;
}

@Toolset({ name: 'tickets' })
class TicketToolset {
  @Tool({ description: 'Get a ticket.', args: TicketArgs, returns: [TicketResult, ToolError] })
  getTicket(_args: TicketArgs): TicketResult | ToolError {
    return new ToolError('not_found', 'none');
  }

  @Tool({ description: 'Count tickets.', returns: TicketResult })
  countTickets(): TicketResult {
    throw new Error('unused');
  }
}

describe('advertised schemas under Ajv', () => {
  const tools = Object.values(describeTools(TicketToolset));
  const schemas = tools.flatMap((tool) => [
    [`${tool.name} input`, tool.inputSchema],
    [`${tool.name} output`, tool.outputSchema],
  ]) as [string, object][];

  it.each(schemas)('%s compiles under the draft 2020-12 class with strict: true', (_label, schema) => {
    const ajv = new Ajv2020({ strict: true });
    addFormats(ajv);
    expect(() => ajv.compile(schema)).not.toThrow();
  });

  it.each(schemas)('%s compiles under the draft-07 class the v1 client uses', (_label, schema) => {
    const ajv = new AjvDraft07({ strict: true });
    addFormats(ajv);
    expect(() => ajv.compile(schema)).not.toThrow();
  });
});

describe('open output schemas', () => {
  it('let a strict client that cached the schema before a field was added accept the new result', () => {
    class ProfileV1 extends ToolResult {
      @Field()
      name!: string;
    }
    @Toolset({ name: 'profiles' })
    class ProfilesV1 {
      @Tool({ description: 'Get a profile.', returns: ProfileV1 })
      profile(): ProfileV1 {
        return { message: '', name: '' };
      }
    }
    const cachedSchema = describeTools(ProfilesV1)['profile'].outputSchema as object;
    const ajv = new AjvDraft07({ strict: true });
    const validate = ajv.compile(cachedSchema);

    // The server has since added `email` to the result: the old schema must still accept it.
    expect(validate({ message: 'Found Ada.', name: 'Ada', email: 'ada@example.com' })).toBe(true);
    expect(validate({ name: 'Ada' })).toBe(false);
  });
});
