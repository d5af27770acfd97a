import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startApp, type RunningApp } from './support/start-app';

/** The suite speaks 2025-era MCP only; the same fixtures answer a 2026-07-28 client over HTTP. */
describe('the conformance fixtures, for a 2026-07-28 client over HTTP', () => {
  let app: RunningApp;
  let client: Client;
  const asked: { properties: Record<string, unknown> }[] = [];

  beforeAll(async () => {
    app = await startApp();
    const origin = app.origin;
    client = new Client({ name: 'modern-era', version: '0' }, { capabilities: { elicitation: {}, sampling: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } });
    client.setRequestHandler('elicitation/create', async (request) => {
      const form = (request.params as { requestedSchema: { properties: Record<string, unknown> } }).requestedSchema;
      asked.push(form);
      // The SEP-1330 form gets choices from its enums; the others a username and an email.
      return form.properties['titledMulti']
        ? ({ action: 'accept', content: { untitledSingle: 'option1', titledSingle: 'value1', legacyEnum: 'opt1', untitledMulti: ['option1', 'option2'], titledMulti: ['value1', 'value2'] } } as never)
        : ({ action: 'accept', content: { username: 'ada', email: 'ada@example.com' } } as never);
    });
    client.setRequestHandler('sampling/createMessage', async () => ({ role: 'assistant', content: { type: 'text', text: 'Paris' }, model: 'test', stopReason: 'endTurn' }) as never);
    await client.connect(new StreamableHTTPClientTransport(new URL(`${origin}/mcp`)));
  });
  afterAll(async () => {
    await client.close();
    await app.stop();
  });

  it('gets content beside results, prompts, resources and completions', async () => {
    const image = await client.callTool({ name: 'test_image_content', arguments: {} });
    expect(image.structuredContent).toEqual({ message: 'A 1x1 red pixel.' });
    expect((image.content as { type: string }[]).map((block) => block.type)).toEqual(['text', 'image']);
    expect((await client.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'a', arg2: 'b' } })).messages).toEqual([
      { role: 'user', content: { type: 'text', text: "Prompt with arguments: arg1='a', arg2='b'" } },
    ]);
    expect((await client.readResource({ uri: 'test://template/7/data' })).contents).toEqual([
      { uri: 'test://template/7/data', mimeType: 'application/json', text: '{"id":"7","templateTest":true,"data":"Data for ID: 7"}' },
    ]);
    expect((await client.complete({ ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' }, argument: { name: 'arg1', value: 'par' } })).completion.values).toEqual([
      'paris',
      'park',
      'party',
    ]);
  });

  it('asks the user (elicitation) and the client model (sampling) through input_required round trips over stateless HTTP', async () => {
    expect((await client.callTool({ name: 'test_elicitation', arguments: { message: 'Who are you?' } })).structuredContent).toEqual({
      message: 'User response: action=accept, content={"username":"ada","email":"ada@example.com"}',
    });
    expect((await client.callTool({ name: 'test_sampling', arguments: { prompt: 'Capital of France?' } })).structuredContent).toEqual({ message: 'LLM response: Paris' });
  });

  it('asks a form with titled and multi-select enums (SEP-1330) through an input_required round trip', async () => {
    const result = await client.callTool({ name: 'test_elicitation_sep1330_enums', arguments: {} });
    expect(result.structuredContent).toEqual({
      message: 'Elicitation completed: action=accept, content={"untitledSingle":"option1","titledSingle":"value1","legacyEnum":"opt1","untitledMulti":["option1","option2"],"titledMulti":["value1","value2"]}',
    });
    const form = asked.at(-1)!.properties;
    expect(form['titledSingle']).toEqual({ type: 'string', oneOf: [{ const: 'value1', title: 'First Option' }, { const: 'value2', title: 'Second Option' }, { const: 'value3', title: 'Third Option' }] });
    expect(form['legacyEnum']).toEqual({ type: 'string', enum: ['opt1', 'opt2', 'opt3'], enumNames: ['Option One', 'Option Two', 'Option Three'] });
    expect(form['untitledMulti']).toEqual({ type: 'array', items: { type: 'string', enum: ['option1', 'option2', 'option3'] } });
    expect(form['titledMulti']).toEqual({ type: 'array', items: { anyOf: [{ const: 'value1', title: 'First Choice' }, { const: 'value2', title: 'Second Choice' }, { const: 'value3', title: 'Third Choice' }] } });
  });

  it('receives the log lines of a call at the level the request asks for', async () => {
    const levels: string[] = [];
    client.setNotificationHandler('notifications/message', (notification) => void levels.push(`${notification.params.level}: ${notification.params.data}`));
    await client.callTool({ name: 'test_tool_with_logging', arguments: {}, _meta: { 'io.modelcontextprotocol/logLevel': 'info' } });
    expect(levels).toEqual(['info: Tool execution started', 'info: Tool processing data', 'info: Tool execution completed']);
  });
});
