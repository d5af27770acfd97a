import 'reflect-metadata';
import { Field, Prompt, Resource, ResourceTemplate, Result, Tool, ToolResult, Toolset, buildServer, runContractGate, type ClassType } from '../../src';
import { ContractError } from '../../src/errors';
import { connectClient } from '../support/connect';

function violationsOf(...toolsets: ClassType[]): string[] {
  try {
    runContractGate('members', toolsets);
  } catch (error) {
    if (error instanceof ContractError) return error.violations.map((violation) => `${violation.name}: ${violation.message}`);
    throw error;
  }
  return [];
}

describe('the startup gate over prompts and resources', () => {
  it('refuses a prompt without a description, with a bad name, or with a non-string argument', () => {
    class CountArgs {
      @Field()
      count!: number;
    }
    @Toolset({ name: 'prompts' })
    class BadPrompts {
      @Prompt({ description: ' ' })
      blank() {
        return 'x';
      }

      @Prompt({ name: 'has space', description: 'x' })
      spaced() {
        return 'x';
      }

      @Prompt({ description: 'Count.', args: CountArgs })
      counted() {
        return 'x';
      }
    }
    expect(violationsOf(BadPrompts)).toEqual([
      "MissingMemberDescriptionError: [toolset 'prompts' > prompt 'blank'] The @Prompt has no description; clients list it, and models choose by it. Fix: add `description: '...'` to @Prompt, saying what it holds and when to use it.",
      `InvalidMemberNameError: [toolset 'prompts' > prompt 'has space'] The name "has space" is not 1 to 128 characters of A-Z a-z 0-9 _ - . Fix: set \`name:\` in @Prompt to a name like 'summarize_ticket', or rename the method.`,
      "PromptArgumentTypeError: [toolset 'prompts' > prompt 'counted' > CountArgs.count] 'count' of 'CountArgs' is a number; prompt arguments are strings on the wire. Fix: declare 'count' as a string (an enum of strings, `@IsIn([...])` or `@Matches(...)` narrows it), and convert it in the method.",
    ]);
  });

  it('refuses a resource URI without a scheme, and a template whose variables and args disagree', () => {
    class IdArgs {
      @Field()
      id!: string;

      @Field()
      region!: string;
    }
    @Toolset({ name: 'files' })
    class BadResources {
      @Resource({ uri: 'readme.md', description: 'x' })
      readme() {
        return 'x';
      }

      @ResourceTemplate({ uriTemplate: 'files://{id}/{version}', description: 'x', args: IdArgs })
      file() {
        return 'x';
      }

      @ResourceTemplate({ uriTemplate: 'files://static', description: 'x' })
      fixed() {
        return 'x';
      }
    }
    const violations = violationsOf(BadResources);
    expect(violations[0]).toContain(`InvalidResourceUriError: [toolset 'files' > resource 'readme.md'] The resource URI "readme.md" has no scheme. Fix: give @Resource a URI with a scheme`);
    expect(violations[1]).toContain(`[toolset 'files' > resource 'files://{id}/{version}'] The URI template "files://{id}/{version}" has variables 'version' that 'IdArgs' does not declare.`);
    expect(violations[2]).toContain(`never fills the required field(s) 'region' of 'IdArgs'. Fix: add them to the template as variables, or make them optional.`);
    expect(violations[3]).toContain(`The URI template "files://static" has no variables. Fix: declare a fixed URI with @Resource`);
    expect(violations).toHaveLength(4);
  });

  it('refuses two prompts with one name, and two resources with one URI, across toolsets of one server', () => {
    @Toolset({ name: 'one' })
    class One {
      @Prompt({ description: 'x' })
      summary() {
        return 'x';
      }

      @Resource({ uri: 'docs://a', description: 'x' })
      a() {
        return 'x';
      }
    }
    @Toolset({ name: 'two' })
    class Two {
      @Prompt({ description: 'x' })
      summary() {
        return 'y';
      }

      @Resource({ uri: 'docs://a', description: 'x' })
      b() {
        return 'y';
      }
    }
    expect(violationsOf(One, Two)).toEqual([
      "DuplicateMemberError: [prompt 'summary'] The prompt name 'summary' is declared by One.summary() (toolset 'one') and by Two.summary() (toolset 'two'); it must be unique in one server. Fix: give one of them a distinct `name:` in @Prompt.",
      "DuplicateMemberError: [resource 'docs://a'] The resource URI 'docs://a' is declared by One.a() (toolset 'one') and by Two.b() (toolset 'two'); it must be unique in one server. Fix: give one of them a distinct URI.",
    ]);
  });

  it('accepts a toolset of only prompts and resources', () => {
    @Toolset({ name: 'docs' })
    class Docs {
      @Resource({ uri: 'docs://readme', description: 'The readme.' })
      readme() {
        return '# Readme';
      }
    }
    expect(violationsOf(Docs)).toEqual([]);
  });
});

describe('a raw input schema (JSON Schema 2020-12) instead of an args class', () => {
  const ADDRESS_SCHEMA = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    $defs: { address: { type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } } },
    properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
    additionalProperties: false,
  };
  @Result({ description: 'Where.' })
  class WhereResult extends ToolResult {}

  @Toolset({ name: 'raw' })
  class RawToolset {
    @Tool({ description: 'Locate someone.', inputSchema: ADDRESS_SCHEMA, returns: WhereResult })
    locate(args: Record<string, unknown>): WhereResult {
      return { message: `${args['name']} lives in ${(args['address'] as { city?: string } | undefined)?.city ?? 'an unknown city'}.` };
    }
  }

  it('advertises the schema exactly as written, validates calls against it, and hands the method the plain object', async () => {
    const client = await connectClient(buildServer({ name: 'raw', version: '1.0.0', toolsets: [RawToolset] }));
    const [tool] = (await client.listTools()).tools;
    expect(tool.inputSchema).toEqual(ADDRESS_SCHEMA);
    expect((await client.callTool({ name: 'locate', arguments: { name: 'Ada', address: { city: 'London' } } })).structuredContent).toEqual({ message: 'Ada lives in London.' });
    const refused = await client.callTool({ name: 'locate', arguments: { name: 'Ada', address: { city: 7 } } });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toContain("'address.city'");
    expect((await client.callTool({ name: 'locate', arguments: { name: 'Ada', age: 3 } })).isError).toBe(true);
    await client.close();
  });

  it('refuses a raw schema that is not object-rooted, has a $ref outside it, or comes with args', () => {
    class Args {
      @Field()
      q!: string;
    }
    @Toolset({ name: 'bad-raw' })
    class BadRaw {
      @Tool({ description: 'x', inputSchema: { type: 'array' }, returns: WhereResult })
      list(): WhereResult {
        return { message: '' };
      }

      @Tool({ description: 'x', inputSchema: { type: 'object', properties: { a: { $ref: '#/$defs/missing' }, b: { $ref: 'https://example.com/s.json' } } }, returns: WhereResult })
      refs(): WhereResult {
        return { message: '' };
      }

      @Tool({ description: 'x', args: Args, inputSchema: { type: 'object' }, returns: WhereResult })
      both(): WhereResult {
        return { message: '' };
      }
    }
    expect(violationsOf(BadRaw).map((v) => v.replace(/ Fix: .*/, ''))).toEqual([
      `InvalidInputSchemaError: [toolset 'bad-raw' > tool 'list'] The tool's raw inputSchema is not rooted in an object (\`type: "object"\`): tool arguments are a JSON object.`,
      `InvalidInputSchemaError: [toolset 'bad-raw' > tool 'refs'] The tool's raw inputSchema has a $ref "#/$defs/missing" that does not resolve inside it.`,
      `InvalidInputSchemaError: [toolset 'bad-raw' > tool 'refs'] The tool's raw inputSchema has a $ref "https://example.com/s.json" that does not resolve inside it.`,
      `InvalidInputSchemaError: [toolset 'bad-raw' > tool 'both'] The tool's raw inputSchema is given together with \`args\`; a tool takes one or the other.`,
    ]);
  });
});
