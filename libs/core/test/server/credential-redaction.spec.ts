import 'reflect-metadata';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  buildServer,
  Field,
  Prompt,
  RequestContext,
  Resource,
  serveHttp,
  Tool,
  ToolError,
  ToolResult,
  Toolset,
  userMessage,
  withContent,
  type ResultWithContent,
  embeddedResource,
  type HttpServerHandle,
} from '../../src';
import { recordingLogger } from '../support/connect';

class ForecastResult extends ToolResult {
  @Field()
  source!: string;
}

class Done extends ToolResult {}

/** Every way a tool, prompt or resource can put the caller's key into what the client receives. */
@Toolset({ name: 'weather', credentialHeaders: ['x-weather-key'] })
class LeakyWeatherToolset {
  constructor(private readonly context: RequestContext) {}

  private get key(): string {
    return this.context.credential('x-weather-key');
  }

  @Tool({ description: 'Fails upstream, quoting the key.', returns: [ForecastResult, ToolError] })
  forecast(): ForecastResult {
    throw new ToolError('upstream_failed', `upstream refused apikey=${this.key}`);
  }

  @Tool({ description: 'Returns the key in its error arm, URL-encoded and base64.', returns: [ForecastResult, ToolError] })
  encoded(): ToolError {
    return new ToolError(`kind ${this.key}`, `url=https://api.example/?k=${encodeURIComponent(this.key)} basic=${Buffer.from(this.key).toString('base64')} json=${JSON.stringify(this.key)}`);
  }

  @Tool({ description: 'Returns the key in its result, in upper case, and in extra content.', returns: ForecastResult })
  echo(): ResultWithContent<ForecastResult> {
    return withContent({ message: `key ${this.key.toUpperCase()}`, source: `https://api.example/v1?apikey=${this.key}` }, embeddedResource({ uri: 'weather://raw', text: `raw ${this.key}` }));
  }

  @Tool({ description: 'Throws a ToolError it does not declare.', returns: Done })
  undeclared(): Done {
    throw new ToolError('upstream_failed', `refused ${this.key}`);
  }

  @Tool({ description: 'Logs and reports progress with the key.', returns: Done })
  async chatty(): Promise<Done> {
    await this.context.log('warning', { note: `retrying with ${this.key}` });
    return { message: 'done' };
  }

  @Prompt({ description: 'A prompt quoting the key.' })
  brief() {
    return [userMessage(`Use the key ${this.key}.`)];
  }

  @Resource({ uri: 'weather://config', description: 'Config quoting the key.', mimeType: 'text/plain' })
  config() {
    return `key=${this.key}`;
  }

  @Prompt({ description: 'A prompt that fails quoting the key.' })
  broken(): string {
    throw new ToolError('bad', `no prompt for ${this.key}`);
  }
}

const KEY = 'wk_live+Secret/42==';

describe('credential values never leave the server', () => {
  let http: HttpServerHandle;
  let client: Client;
  const log = recordingLogger();
  const notifications: unknown[] = [];

  beforeAll(async () => {
    http = await serveHttp(buildServer({ name: 'weather', version: '1', toolsets: [LeakyWeatherToolset], logger: log.logger }), { port: 0, logger: log.logger });
    client = new Client({ name: 'redaction-test', version: '1' });
    client.setNotificationHandler('notifications/message', (note) => void notifications.push(note));
    await client.connect(new StreamableHTTPClientTransport(new URL(http.mounts[0]!.url), { requestInit: { headers: { 'x-weather-key': KEY } } }));
  });

  afterAll(async () => {
    await client.close();
    await http.close();
  });

  /** True when `sent` holds the key in any form the redactor covers, in any letter case. */
  function leaks(sent: unknown): boolean {
    const text = JSON.stringify(sent).toLowerCase();
    const forms = [KEY, encodeURIComponent(KEY), Buffer.from(KEY).toString('base64'), Buffer.from(KEY).toString('base64').replace(/=+$/, ''), JSON.stringify(KEY).slice(1, -1)];
    return forms.some((form) => text.includes(form.toLowerCase()));
  }

  it("redacts the key from a thrown ToolError's detail, in structuredContent and the text block", async () => {
    const result = await client.callTool({ name: 'forecast', arguments: {} });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toEqual({ error: 'upstream_failed', detail: 'upstream refused apikey=[redacted x-weather-key]' });
    expect(leaks(result)).toBe(false);
  });

  it('redacts every encoding of the key from a returned ToolError, its kind included', async () => {
    const result = await client.callTool({ name: 'encoded', arguments: {} });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toEqual({
      error: 'kind [redacted x-weather-key]',
      detail: 'url=https://api.example/?k=[redacted x-weather-key] basic=[redacted x-weather-key] json="[redacted x-weather-key]"',
    });
    expect(leaks(result)).toBe(false);
  });

  it('redacts the key from a result, in any letter case, and from extra content blocks', async () => {
    const result = await client.callTool({ name: 'echo', arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ message: 'key [redacted x-weather-key]', source: 'https://api.example/v1?apikey=[redacted x-weather-key]' });
    expect(result.content).toContainEqual({ type: 'resource', resource: { uri: 'weather://raw', text: 'raw [redacted x-weather-key]' } });
    expect(leaks(result)).toBe(false);
  });

  it('redacts the key from an undeclared ToolError sent as text', async () => {
    const result = await client.callTool({ name: 'undeclared', arguments: {} });
    expect(result).toEqual({ content: [{ type: 'text', text: 'upstream_failed: refused [redacted x-weather-key]' }], isError: true });
  });

  it('redacts the key from log notifications', async () => {
    await client.setLoggingLevel('debug');
    await client.callTool({ name: 'chatty', arguments: {} });
    expect(notifications).toHaveLength(1);
    expect(JSON.stringify(notifications[0])).toContain('retrying with [redacted x-weather-key]');
    expect(leaks(notifications)).toBe(false);
  });

  it('redacts the key from prompts, their failures, and resources', async () => {
    const prompt = await client.getPrompt({ name: 'brief' });
    expect(prompt.messages[0]!.content).toEqual({ type: 'text', text: 'Use the key [redacted x-weather-key].' });
    const resource = await client.readResource({ uri: 'weather://config' });
    expect(resource.contents[0]).toMatchObject({ text: 'key=[redacted x-weather-key]' });
    const failure = await client.getPrompt({ name: 'broken' }).catch((error: Error) => error);
    expect(String((failure as Error).message)).toContain('no prompt for [redacted x-weather-key]');
    expect(leaks([prompt, resource, (failure as Error).message])).toBe(false);
  });

  it('keeps the key out of the server log too', () => {
    expect(log.lines.length).toBeGreaterThan(0);
    expect(leaks(log.lines)).toBe(false);
  });

  it('leaves a value shorter than 4 characters in place, which is no secret and would mangle words', async () => {
    const short = new Client({ name: 'short-key', version: '1' });
    await short.connect(new StreamableHTTPClientTransport(new URL(http.mounts[0]!.url), { requestInit: { headers: { 'x-weather-key': 'k' } } }));
    expect((await short.callTool({ name: 'undeclared', arguments: {} })).content).toEqual([{ type: 'text', text: 'upstream_failed: refused k' }]);
    await short.close();
  });
});
