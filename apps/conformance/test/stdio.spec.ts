import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as LegacyStdioTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CreateMessageRequestSchema, ElicitRequestSchema, LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

const params = () => ({ command: process.execPath, args: [join(__dirname, '../dist/main.js'), '--stdio'], env: { PATH: process.env['PATH'] ?? '' }, stderr: 'pipe' as const });
const ANSWER = { action: 'accept', content: { username: 'ada', email: 'ada@example.com' } };
const SAMPLED = { role: 'assistant', content: { type: 'text', text: 'Paris' }, model: 'test', stopReason: 'endTurn' };

/** Every feature of the fixtures over stdio, for a client of each era, through the built app as a child process. */
describe('the conformance fixtures over stdio', () => {
  it('serve a 2025-era client: content, prompts, resources, completion, logging, elicitation and sampling', async () => {
    const client = new LegacyClient({ name: 'stdio-2025', version: '0' }, { capabilities: { elicitation: {}, sampling: {} } });
    client.setRequestHandler(ElicitRequestSchema, async () => ANSWER as never);
    client.setRequestHandler(CreateMessageRequestSchema, async () => SAMPLED as never);
    const logs: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params.data));
    await client.connect(new LegacyStdioTransport(params()));
    expect((await client.callTool({ name: 'test_image_content', arguments: {} })).content).toEqual([
      { type: 'text', text: '{"message":"A 1x1 red pixel."}' },
      expect.objectContaining({ type: 'image', mimeType: 'image/png' }),
    ]);
    expect((await client.getPrompt({ name: 'test_simple_prompt' })).messages[0].content).toEqual({ type: 'text', text: 'This is a simple prompt for testing.' });
    expect((await client.readResource({ uri: 'test://static-text' })).contents[0]).toMatchObject({ text: 'This is the content of the static text resource.' });
    expect((await client.complete({ ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' }, argument: { name: 'arg1', value: 'pa' } })).completion.values).toEqual(['paris', 'park', 'party']);
    await client.setLoggingLevel('info');
    await client.callTool({ name: 'test_tool_with_logging', arguments: {} });
    expect(logs).toEqual(['Tool execution started', 'Tool processing data', 'Tool execution completed']);
    expect((await client.callTool({ name: 'test_elicitation', arguments: { message: 'Who are you?' } })).structuredContent).toEqual({
      message: 'User response: action=accept, content={"username":"ada","email":"ada@example.com"}',
    });
    expect((await client.callTool({ name: 'test_sampling', arguments: { prompt: 'Capital of France?' } })).structuredContent).toEqual({ message: 'LLM response: Paris' });
    await client.subscribeResource({ uri: 'test://watched-resource' });
    await client.close();
  });

  it('serve a 2026-07-28 client: content, prompts, resources, elicitation and sampling', async () => {
    const client = new Client({ name: 'stdio-2026', version: '0' }, { capabilities: { elicitation: {}, sampling: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } });
    client.setRequestHandler('elicitation/create', async () => ANSWER as never);
    client.setRequestHandler('sampling/createMessage', async () => SAMPLED as never);
    await client.connect(new StdioClientTransport(params()));
    expect(((await client.callTool({ name: 'test_audio_content', arguments: {} })).content as { type: string }[]).map((block) => block.type)).toEqual(['text', 'audio']);
    expect((await client.getPrompt({ name: 'test_prompt_with_image' })).messages.map((message) => message.content.type)).toEqual(['image', 'text']);
    expect((await client.readResource({ uri: 'test://template/9/data' })).contents[0]).toMatchObject({ text: '{"id":"9","templateTest":true,"data":"Data for ID: 9"}' });
    expect((await client.callTool({ name: 'test_elicitation', arguments: { message: 'Who are you?' } })).structuredContent).toEqual({
      message: 'User response: action=accept, content={"username":"ada","email":"ada@example.com"}',
    });
    expect((await client.callTool({ name: 'test_sampling', arguments: { prompt: 'Capital of France?' } })).structuredContent).toEqual({ message: 'LLM response: Paris' });
    await client.close();
  });
});
