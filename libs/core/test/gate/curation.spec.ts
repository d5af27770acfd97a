import 'reflect-metadata';
import { IsIn, IsOptional, Max, Min } from 'class-validator';
import { buildServer, ContractError, curate, Field, Tool, ToolResult, Toolset } from '../../src';
import { connectClient, connectLegacyClient } from '../support/connect';

class ListIssuesArgs {
  @Field({ description: 'The repository owner.' })
  owner!: string;

  @Field({ description: 'Which issues.' })
  @IsIn(['open', 'closed', 'all'])
  @IsOptional()
  state?: 'open' | 'closed' | 'all';

  @Field({ description: 'Issues per page.' })
  @Min(1)
  @Max(100)
  @IsOptional()
  perPage?: number;
}

class ListIssuesResult extends ToolResult {
  @Field({ description: 'What the method was called with, as the library wrote it.' })
  received!: string;
}

class DeleteArgs {
  @Field()
  id!: string;
}

@Toolset({ name: 'issues', description: 'Issues of a repository.' })
class IssuesToolset {
  @Tool({ description: 'List the issues of a repository.', args: ListIssuesArgs, returns: ListIssuesResult })
  listIssues(args: ListIssuesArgs): ListIssuesResult {
    return { message: `listed for ${args.owner}`, received: JSON.stringify({ owner: args.owner, state: args.state, perPage: args.perPage }) };
  }

  @Tool({ description: 'Delete an issue.', args: DeleteArgs, returns: ListIssuesResult })
  deleteIssue(args: DeleteArgs): ListIssuesResult {
    return { message: 'deleted', received: args.id };
  }
}

describe('a toolset curated by the app that serves it', () => {
  const support = () =>
    buildServer({
      name: 'support',
      version: '1.0.0',
      toolsets: [
        curate(IssuesToolset, {
          prefix: 'tickets_',
          hide: ['deleteIssue'],
          tools: {
            listIssues: {
              name: 'list',
              title: 'List tickets',
              description: 'List the support tickets of a customer.',
              annotations: { readOnlyHint: true },
              arguments: {
                owner: { name: 'customer', description: 'The customer, e.g. acme.' },
                state: { enum: ['open', 'closed'], default: 'open' },
                perPage: { value: 50 },
              },
            },
          },
        }),
      ],
    });

  it('serves the renamed, re-described tools with curated arguments, and the method gets the arguments it was written for, in both eras', async () => {
    const server = support();
    expect([...server.catalog.tools.keys()]).toEqual(['tickets_list']);
    const listed = server.catalog.tools.get('tickets_list')!.descriptor;
    expect(listed).toMatchObject({ name: 'tickets_list', title: 'List tickets', description: 'List the support tickets of a customer.', annotations: { readOnlyHint: true } });
    const schema = listed.inputSchema as { properties: Record<string, Record<string, unknown>>; required?: string[] };
    expect(Object.keys(schema.properties)).toEqual(['customer', 'state']);
    expect(schema.required).toEqual(['customer']);
    expect(schema.properties['customer']!['description']).toBe('The customer, e.g. acme.');
    expect(schema.properties['state']).toMatchObject({ enum: ['open', 'closed'], default: 'open' });
    for (const connect of [connectClient, connectLegacyClient]) {
      const client = await connect(server);
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['tickets_list']);
      const called = await client.callTool({ name: 'tickets_list', arguments: { customer: 'acme' } });
      expect(called.structuredContent).toEqual({ message: 'listed for acme', received: JSON.stringify({ owner: 'acme', state: 'open', perPage: 50 }) });
      const closed = await client.callTool({ name: 'tickets_list', arguments: { customer: 'acme', state: 'closed' } });
      expect((closed.structuredContent as { received: string }).received).toBe(JSON.stringify({ owner: 'acme', state: 'closed', perPage: 50 }));
      // Refused by the curated schema, in its own names: a value the enum narrowed away, the hidden argument, the old name.
      for (const [args, says] of [
        [{ customer: 'acme', state: 'all' }, "'state' must be one of"],
        [{ customer: 'acme', perPage: 5 }, "'perPage'"],
        [{ owner: 'acme' }, "'customer' is required"],
      ] as const) {
        const refused = await client.callTool({ name: 'tickets_list', arguments: args });
        expect(refused.isError).toBe(true);
        expect(JSON.stringify(refused.content)).toContain(says);
      }
      // A hidden tool is not there at all.
      await expect(client.callTool({ name: 'tickets_delete_issue', arguments: { id: '1' } })).rejects.toThrow(/Unknown tool/);
      await client.close();
    }
  });

  it('leaves the library and other apps untouched: two curations of one toolset serve side by side', async () => {
    const plain = buildServer({ name: 'plain', version: '1.0.0', toolsets: [IssuesToolset] });
    const other = buildServer({ name: 'other', version: '1.0.0', toolsets: [curate(IssuesToolset, { prefix: 'gh_' })] });
    const curated = support();
    expect([...plain.catalog.tools.keys()]).toEqual(['list_issues', 'delete_issue']);
    expect([...other.catalog.tools.keys()]).toEqual(['gh_list_issues', 'gh_delete_issue']);
    expect(plain.catalog.toolsets[0]!.curated).toBeUndefined();
    expect(curated.catalog.toolsets[0]!.curated).toBe(true);
    const client = await connectClient(plain);
    const called = await client.callTool({ name: 'list_issues', arguments: { owner: 'acme', perPage: 5 } });
    expect((called.structuredContent as { received: string }).received).toBe(JSON.stringify({ owner: 'acme', perPage: 5 }));
    await client.close();
  });

  it('omits an optional argument: gone from the schema, refused if sent, and the method gets nothing for it', async () => {
    const server = buildServer({ name: 'lean', version: '1.0.0', toolsets: [curate(IssuesToolset, { hide: ['deleteIssue'], tools: { listIssues: { arguments: { perPage: { omit: true } } } } })] });
    const schema = server.catalog.tools.get('list_issues')!.descriptor.inputSchema as { properties: Record<string, unknown> };
    expect(Object.keys(schema.properties)).toEqual(['owner', 'state']);
    const client = await connectClient(server);
    const called = await client.callTool({ name: 'list_issues', arguments: { owner: 'acme' } });
    expect((called.structuredContent as { received: string }).received).toBe(JSON.stringify({ owner: 'acme' }));
    const refused = await client.callTool({ name: 'list_issues', arguments: { owner: 'acme', perPage: 5 } });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toContain("'perPage'");
    await client.close();
  });

  it('refuses omit on a required argument, and omit beside other settings, naming the fix', () => {
    const build = (entry: object) => () => buildServer({ name: 'x', version: '1.0.0', toolsets: [curate(IssuesToolset, { hide: ['deleteIssue'], tools: { listIssues: { arguments: entry } } } as never)] });
    expect(build({ owner: { omit: true } })).toThrow("tools.listIssues.arguments.owner: omit for 'owner': hides an argument the tool requires, so the call could not be made. Fix: give \"value\" instead");
    expect(build({ perPage: { omit: true, default: 5 } })).toThrow('omit for \'perPage\': hides the argument and sends nothing for it, but the entry also sets default. Fix: keep "omit": true alone');
    expect(build({ perPage: { omit: 'yes' } })).toThrow('omit for \'perPage\': is "yes", not true');
  });

  it('says which method a tool name belongs to when curate() is keyed by the tool name', () => {
    expect(() => buildServer({ name: 'x', version: '1.0.0', toolsets: [curate(IssuesToolset, { tools: { list_issues: { description: 'x' } } } as never)] })).toThrow(
      "tools names 'list_issues', which is not a tool method of IssuesToolset. 'list_issues' is the tool name of listIssues(): curate() keys tools by method.",
    );
  });

  it('refuses, at startup, a curation that does not fit the toolset: every problem with the tool, the argument and the fix', () => {
    let thrown: unknown;
    try {
      buildServer({
        name: 'broken',
        version: '1.0.0',
        toolsets: [
          curate(IssuesToolset, {
            prefix: 'bad prefix ',
            hide: ['deleteIssue'],
            tools: {
              listIssues: {
                arguments: {
                  perPage: { value: 500, maximum: 10 },
                  state: { enum: ['open', 'stale' as 'open'] },
                  owner: { name: 'state', pattern: '(' },
                },
              },
            },
          }),
          // Runtime callers (JavaScript, JSON config) can name what is not a tool: the gate says so.
          curate(IssuesToolset, { hide: ['closeIssue'] } as never),
          curate(IssuesToolset, { hide: ['listIssues', 'deleteIssue'], tools: { deleteIssue: { title: 'Delete' } } }),
        ],
      });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ContractError);
    const message = (thrown as Error).message;
    for (const line of [
      "tools.listIssues.arguments.perPage: the value 500 for 'perPage' is refused by the argument's schema.",
      "tools.listIssues.arguments.state: the enum for 'state' has \"stale\", which the argument refuses.",
      "tools.listIssues.arguments.owner: pattern for 'owner': \"(\" is not a regular expression (as JavaScript compiles it with the u flag). Fix: give a valid regular expression.",
      "tools.listIssues.arguments.owner: name for 'owner': \"state\" is the name of another argument, 'state'. Fix: give each argument its own name.",
      'hide leaves no tool of the toolset to serve. Fix: leave IssuesToolset out',
      'tools.deleteIssue curates a tool that hide leaves out.',
      `The tool name "bad prefix list_issues" is rejected`.replace('The tool name', 'the tool name'),
      "hide names 'closeIssue', which is not a tool method of IssuesToolset. Fix: name one of its tool methods: listIssues, deleteIssue.",
    ]) {
      expect(message).toContain(line);
    }
  });
});
