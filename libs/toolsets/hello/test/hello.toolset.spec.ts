import 'reflect-metadata';
import { connectToolset, textOf, type ToolsetClient } from '@toolsets/testing';
import { HelloToolset } from '../src';

describe('HelloToolset', () => {
  let toolset: ToolsetClient;

  beforeAll(async () => {
    toolset = await connectToolset(HelloToolset);
  });
  afterAll(() => toolset.close());

  it('advertises hello with an optional name defaulting to world, and a message-only result', async () => {
    const hello = (await toolset.listTools()).find((tool) => tool.name === 'hello');
    expect(hello?.inputSchema).toEqual({
      type: 'object',
      title: 'HelloArgs',
      additionalProperties: false,
      properties: { name: { type: 'string', description: 'Who to greet.', minLength: 1, maxLength: 100, default: 'world' } },
    });
    expect(hello?.outputSchema).toMatchObject({
      type: 'object',
      title: 'HelloResult',
      description: 'A greeting, in the message.',
      properties: { message: { type: 'string' } },
      required: ['message'],
    });
  });

  it('greets the world by default, and a name when given one', async () => {
    expect((await toolset.call('hello')).structuredContent).toEqual({ message: 'Hello, world!' });
    const named = await toolset.call('hello', { name: 'Ada' });
    expect(named.structuredContent).toEqual({ message: 'Hello, Ada!' });
    expect(textOf(named)).toBe('{"message":"Hello, Ada!"}');
  });

  it('greets a team with one nested greeting per name', async () => {
    const result = await toolset.call('greet_team', { names: ['Ada', 'Grace'] });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({
      message: 'Greeted 2 team member(s).',
      greetings: [
        { name: 'Ada', text: 'Hello, Ada!' },
        { name: 'Grace', text: 'Hello, Grace!' },
      ],
    });
  });

  it('returns a ToolError for a team with a duplicate name', async () => {
    const result = await toolset.call('greet_team', { names: ['Ada', 'ada', 'Grace'] });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toEqual({
      error: 'duplicate_names',
      detail: 'These names appear more than once: ada. Send each person once.',
    });
  });

  it('refuses an empty team before the tool runs, naming the field', async () => {
    const result = await toolset.call('greet_team', { names: [] });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("'names' must not have fewer than 1 items");
  });

  it('serves 2025-era clients the same results', async () => {
    const legacy = await connectToolset(HelloToolset, { era: 'legacy' });
    expect((await legacy.call('hello', { name: 'Lin' })).structuredContent).toEqual({ message: 'Hello, Lin!' });
    await legacy.close();
  });

  it('offers a welcome prompt whose arguments are checked', async () => {
    const client = toolset.client as import('@modelcontextprotocol/client').Client;
    const prompt = await client.getPrompt({ name: 'welcome', arguments: { name: 'Ada', team: 'compilers' } });
    expect(prompt.messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'Write a two-sentence welcome note for Ada, who is joining the compilers team. Keep it warm and specific.' } },
      { role: 'assistant', content: { type: 'text', text: 'Welcome, Ada!' } },
    ]);
    await expect(client.getPrompt({ name: 'welcome', arguments: { name: 'Ada' } })).rejects.toThrow(/'team'/);
  });

  it('serves its languages as a resource, the word for hello per language as a template, and completes the language', async () => {
    const client = toolset.client as import('@modelcontextprotocol/client').Client;
    expect((await client.readResource({ uri: 'hello://languages' })).contents).toEqual([
      { uri: 'hello://languages', mimeType: 'text/plain', text: 'english\nfrench\ngerman\nspanish\nswahili' },
    ]);
    expect((await client.readResource({ uri: 'hello://greeting/swahili' })).contents[0]).toMatchObject({ text: 'Jambo' });
    await expect(client.readResource({ uri: 'hello://greeting/klingon' })).rejects.toThrow(/'language'/);
    const completion = await client.complete({ ref: { type: 'ref/resource', uri: 'hello://greeting/{language}' }, argument: { name: 'language', value: 'S' } });
    expect(completion.completion.values).toEqual(['spanish', 'swahili']);
  });

  it('sends a greeting card as an SVG image beside the greeting, the name escaped', async () => {
    const result = await toolset.call('hello_card', { name: 'Ada <3' });
    expect(result.structuredContent).toEqual({ message: 'Hello, Ada <3!' });
    const [text, card] = result.content as { type: string; text?: string; data?: string; mimeType?: string }[];
    expect(text).toEqual({ type: 'text', text: '{"message":"Hello, Ada <3!"}' });
    expect(card.mimeType).toBe('image/svg+xml');
    expect(Buffer.from(card.data!, 'base64').toString()).toContain('>Hello, Ada &lt;3!</text>');
  });
});
