import 'reflect-metadata';
import { IsIn, IsOptional } from 'class-validator';
import { inject, injectable } from 'tsyringe';
import { Complete, Field, Prompt, RequestContext, Resource, ResourceTemplate, Toolset, assistantMessage, buildServer, image, userMessage } from '../../src';
import { connectClient, connectLegacyClient } from '../support/connect';

const CITIES = ['paris', 'park city', 'parma', 'porto'];

class TripArgs {
  @Field({ description: 'Where to go.' })
  @Complete((value) => CITIES.filter((city) => city.startsWith(value)))
  city!: string;

  @Field({ description: 'How to travel.' })
  @IsOptional()
  @IsIn(['train', 'plane'])
  mode?: string;
}

class UserArgs {
  @Field()
  @Complete((value, context) => (context.arguments['org'] === 'acme' ? ['ada', 'alan'] : ['bob']).filter((id) => id.startsWith(value)))
  id!: string;
}

@Toolset({ name: 'travel' })
class TravelToolset {
  @Prompt({ description: 'Plan a trip to a city.', args: TripArgs })
  planTrip(args: TripArgs) {
    return [userMessage(`Plan a trip to ${args.city} by ${args.mode ?? 'train'}.`), assistantMessage('Here is a plan:')];
  }

  @Prompt({ title: 'Describe', description: 'Describe the map.' })
  describeMap() {
    return [userMessage(image(new Uint8Array([137, 80, 78, 71]), 'image/png')), userMessage('What is on this map?')];
  }

  @Resource({ uri: 'travel://guide', description: 'The travel guide.', mimeType: 'text/markdown' })
  guide() {
    return '# Guide';
  }

  @Resource({ uri: 'travel://logo', description: 'The logo.', mimeType: 'image/png' })
  logo() {
    return new Uint8Array([137, 80, 78, 71]);
  }

  @ResourceTemplate({ uriTemplate: 'travel://users/{id}', description: 'A traveller.', mimeType: 'application/json', args: UserArgs })
  user(args: UserArgs) {
    return JSON.stringify({ id: args.id });
  }
}

const server = buildServer({ name: 'travel', version: '1.0.0', toolsets: [TravelToolset] });

/** A service the toolset is given: the members of each organisation. */
const DIRECTORY = Symbol('directory');
const MEMBERS: Record<string, string[]> = { acme: ['ada', 'alan', 'bob'], globex: ['alice'] };
let toolsetsMade = 0;

class MemberArgs {
  // The caller's own organisation, from their credential, through the toolset resolved for the request.
  @Field()
  @Complete<OrgToolset>((value, { toolset }) => toolset.membersStartingWith(value))
  member!: string;

  @Field()
  @Complete((value) => ['weekly', 'monthly'].filter((period) => period.startsWith(value)))
  period!: string;
}

@Toolset({ name: 'org', credentialHeaders: ['x-org-token'] })
@injectable()
class OrgToolset {
  constructor(
    private readonly context: RequestContext,
    @inject(DIRECTORY) private readonly directory: Record<string, string[]>,
  ) {
    toolsetsMade += 1;
  }

  membersStartingWith(value: string): string[] {
    return (this.directory[this.context.credential('x-org-token')] ?? []).filter((member) => member.startsWith(value));
  }

  @Prompt({ description: 'Review a member.', args: MemberArgs })
  review(args: MemberArgs) {
    return `Review ${args.member}, ${args.period}.`;
  }
}

describe('prompts, resources and completion, served to both eras', () => {
  /** Each prompt and resource names its toolset as its group (the grouping extension). */
  const inTravel = { 'io.modelcontextprotocol/groups': ['travel'] };

  it.each(['2026-07-28', '2025'] as const)('lists and gets prompts with validated arguments (%s)', async (era) => {
    const client = era === '2025' ? await connectLegacyClient(server) : await connectClient(server);
    expect((await client.listPrompts()).prompts).toEqual([
      {
        name: 'plan_trip',
        description: 'Plan a trip to a city.',
        arguments: [
          { name: 'city', description: 'Where to go.', required: true },
          { name: 'mode', description: 'How to travel.', required: false },
        ],
        _meta: inTravel,
      },
      { name: 'describe_map', title: 'Describe', description: 'Describe the map.', _meta: inTravel },
    ]);
    expect(await client.getPrompt({ name: 'plan_trip', arguments: { city: 'paris', mode: 'plane' } })).toMatchObject({
      description: 'Plan a trip to a city.',
      messages: [
        { role: 'user', content: { type: 'text', text: 'Plan a trip to paris by plane.' } },
        { role: 'assistant', content: { type: 'text', text: 'Here is a plan:' } },
      ],
    });
    expect((await client.getPrompt({ name: 'describe_map' })).messages[0]).toEqual({ role: 'user', content: { type: 'image', data: 'iVBORw==', mimeType: 'image/png' } });
    await expect(client.getPrompt({ name: 'plan_trip', arguments: { city: 'paris', mode: 'bike' } })).rejects.toThrow(/Invalid arguments for prompt 'plan_trip':\n- 'mode'/);
    await expect(client.getPrompt({ name: 'plan_trip', arguments: {} })).rejects.toThrow(/'city'/);
    await expect(client.getPrompt({ name: 'nope' })).rejects.toThrow("Unknown prompt 'nope'. Available prompts: plan_trip, describe_map.");
    await client.close();
  });

  it.each(['2026-07-28', '2025'] as const)('lists resources and templates, and reads text, bytes and template matches (%s)', async (era) => {
    const client = era === '2025' ? await connectLegacyClient(server) : await connectClient(server);
    expect((await client.listResources()).resources).toEqual([
      { uri: 'travel://guide', name: 'guide', description: 'The travel guide.', mimeType: 'text/markdown', _meta: inTravel },
      { uri: 'travel://logo', name: 'logo', description: 'The logo.', mimeType: 'image/png', _meta: inTravel },
    ]);
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([
      { uriTemplate: 'travel://users/{id}', name: 'user', description: 'A traveller.', mimeType: 'application/json', _meta: inTravel },
    ]);
    expect((await client.readResource({ uri: 'travel://guide' })).contents).toEqual([{ uri: 'travel://guide', mimeType: 'text/markdown', text: '# Guide' }]);
    expect((await client.readResource({ uri: 'travel://logo' })).contents).toEqual([{ uri: 'travel://logo', mimeType: 'image/png', blob: 'iVBORw==' }]);
    expect((await client.readResource({ uri: 'travel://users/ada' })).contents).toEqual([{ uri: 'travel://users/ada', mimeType: 'application/json', text: '{"id":"ada"}' }]);
    await expect(client.readResource({ uri: 'travel://nowhere' })).rejects.toThrow(/No resource matches 'travel:\/\/nowhere'/);
    await client.close();
  });

  it('completes prompt and template arguments with the completer declared next to them', async () => {
    const client = await connectClient(server);
    expect((await client.complete({ ref: { type: 'ref/prompt', name: 'plan_trip' }, argument: { name: 'city', value: 'par' } })).completion).toEqual({
      values: ['paris', 'park city', 'parma'],
      total: 3,
      hasMore: false,
    });
    expect((await client.complete({ ref: { type: 'ref/prompt', name: 'plan_trip' }, argument: { name: 'mode', value: '' } })).completion.values).toEqual([]);
    const users = await client.complete({ ref: { type: 'ref/resource', uri: 'travel://users/{id}' }, argument: { name: 'id', value: 'a' }, context: { arguments: { org: 'acme' } } });
    expect(users.completion.values).toEqual(['ada', 'alan']);
    await expect(client.complete({ ref: { type: 'ref/prompt', name: 'nope' }, argument: { name: 'x', value: '' } })).rejects.toThrow("Unknown prompt 'nope'.");
    await client.close();
  });

  it.each(['2026-07-28', '2025'] as const)("gives a completer its toolset as a call would have it: its services and the caller's credential, made only when read (%s)", async (era) => {
    const { container } = await import('tsyringe');
    const root = container.createChildContainer();
    root.register(DIRECTORY, { useValue: MEMBERS });
    const org = buildServer({ name: 'org', version: '1.0.0', toolsets: [OrgToolset], container: root });
    type Completing = { complete(params: object): Promise<{ completion: { values: string[] } }>; close(): Promise<void> };
    const complete = (client: Completing, name: string, value: string) => client.complete({ ref: { type: 'ref/prompt', name: 'review' }, argument: { name, value } });
    const connect = async (token: string): Promise<Completing> => (era === '2025' ? connectLegacyClient(org, { headers: { 'x-org-token': token } }) : connectClient(org, { headers: { 'x-org-token': token } }));
    const connected = await connect('acme');
    const globex = await connect('globex');
    try {
      const made = toolsetsMade;
      expect((await complete(connected, 'member', 'a')).completion.values).toEqual(['ada', 'alan']);
      expect((await complete(globex, 'member', 'a')).completion.values).toEqual(['alice']);
      expect(toolsetsMade).toBe(made + 2);
      // A completer that does not read its toolset makes none.
      expect((await complete(connected, 'period', 'w')).completion.values).toEqual(['weekly']);
      expect(toolsetsMade).toBe(made + 2);
    } finally {
      await connected.close();
      await globex.close();
    }
  });

  it('refuses a completion whose toolset needs a credential the caller did not send, naming the header', async () => {
    const root = (await import('tsyringe')).container.createChildContainer();
    root.register(DIRECTORY, { useValue: MEMBERS });
    const client = await connectClient(buildServer({ name: 'org', version: '1.0.0', toolsets: [OrgToolset], container: root }));
    try {
      await expect(client.complete({ ref: { type: 'ref/prompt', name: 'review' }, argument: { name: 'member', value: 'a' } })).rejects.toThrow(
        expect.objectContaining({ code: -32600, message: expect.stringContaining('send the `x-org-token` header') }),
      );
    } finally {
      await client.close();
    }
  });

  it('advertises only the capabilities it serves', async () => {
    const client = await connectLegacyClient(server);
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, logging: {}, prompts: {}, resources: {}, completions: {} });
    await client.close();
  });
});
