import 'reflect-metadata';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { Field, Tool, ToolResult, Toolset } from '../../src';
import { describeTools } from '../support/describe-tools';

class EmptyResult extends ToolResult {}

describe('input schemas', () => {
  it('is a closed object built from the args DTO, with initial values advertised as defaults', () => {
    class Filter {
      @Field()
      field!: string;
    }
    class SearchArgs {
      @Field({ description: 'Words to look for.', examples: ['red shoes'] })
      query!: string;

      @Field()
      @IsOptional()
      @IsInt()
      @Min(1)
      @Max(50)
      limit?: number = 10;

      @Field(() => [Filter])
      @IsOptional()
      filters?: Filter[];
    }

    @Toolset({ name: 'search' })
    class SearchToolset {
      @Tool({ description: 'Search.', args: SearchArgs, returns: EmptyResult })
      search(_args: SearchArgs): EmptyResult {
        return { message: '' };
      }
    }

    expect(describeTools(SearchToolset)['search'].inputSchema).toEqual({
      type: 'object',
      title: 'SearchArgs',
      additionalProperties: false,
      properties: {
        query: { type: 'string', description: 'Words to look for.', examples: ['red shoes'] },
        limit: { type: 'integer', minimum: 1, maximum: 50, default: 10 },
        filters: {
          type: 'array',
          items: {
            type: 'object',
            title: 'Filter',
            additionalProperties: false,
            properties: { field: { type: 'string' } },
            required: ['field'],
          },
        },
      },
      required: ['query'],
    });
  });

  it('is an empty closed object for a tool without args', () => {
    @Toolset({ name: 'ping' })
    class PingToolset {
      @Tool({ description: 'Ping.', returns: EmptyResult })
      ping(): EmptyResult {
        return { message: 'pong' };
      }
    }
    expect(describeTools(PingToolset)['ping'].inputSchema).toEqual({
      type: 'object',
      properties: {},
      additionalProperties: false,
    });
  });

  it('names tools after their methods in snake_case unless a name is given, and carries title and annotations', () => {
    @Toolset()
    class NamingToolset {
      @Tool({ description: 'Implicit name.', returns: EmptyResult })
      listOpenIssues(): EmptyResult {
        return { message: '' };
      }

      @Tool({
        name: 'issues.close',
        title: 'Close an issue',
        description: 'Explicit name.',
        returns: EmptyResult,
        annotations: { destructiveHint: true },
      })
      close(): EmptyResult {
        return { message: '' };
      }
    }
    const tools = describeTools(NamingToolset);
    expect(Object.keys(tools)).toEqual(['list_open_issues', 'issues.close']);
    expect(tools['issues.close']).toMatchObject({ title: 'Close an issue', annotations: { destructiveHint: true } });
  });
});
