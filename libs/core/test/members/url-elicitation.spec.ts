import 'reflect-metadata';
import { Client } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport as LegacyInMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { buildServer, Field, RequestContext, Result, Tool, ToolResult, Toolset } from '../../src';
import { recordingLogger } from '../support/connect';

@Result({ description: 'Whether the account is connected.' })
class Connected extends ToolResult {}

@Toolset({ name: 'crm' })
class CrmToolset {
  constructor(private readonly context: RequestContext) {}

  @Tool({ description: 'Connects the CRM: the user signs in on its page.', returns: Connected })
  async connect(): Promise<Connected> {
    const answer = await this.context.elicitUrl('https://crm.example.com/connect?state=abc', 'Sign in to the CRM to connect it.');
    return { message: answer.action === 'accept' ? 'Connected.' : `Not connected (${answer.action}).` };
  }

  @Tool({ description: 'Asks to open something that is not a web page.', returns: Connected })
  async bad(): Promise<Connected> {
    await this.context.elicitUrl('javascript:alert(1)', 'Open this.');
    return { message: 'never' };
  }
}

const server = buildServer({ name: 'crm', version: '1', toolsets: [CrmToolset], logger: recordingLogger().logger });
const URL_REQUEST = { mode: 'url', message: 'Sign in to the CRM to connect it.', url: 'https://crm.example.com/connect?state=abc' };

async function modernClient(capabilities: Record<string, unknown>, action: string) {
  const asked: unknown[] = [];
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'modern', version: '0' }, { capabilities, versionNegotiation: { mode: { pin: '2026-07-28' } } });
  client.setRequestHandler('elicitation/create', async (request) => {
    asked.push(request.params);
    return { action } as never;
  });
  await client.connect(clientSide);
  return { client, asked };
}

async function legacyClient(capabilities: Record<string, unknown>, action: string) {
  const asked: unknown[] = [];
  const [clientSide, serverSide] = LegacyInMemoryTransport.createLinkedPair();
  await server.connect(serverSide as never);
  const client = new LegacyClient({ name: 'legacy', version: '0' }, { capabilities });
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params);
    return { action } as never;
  });
  await client.connect(clientSide);
  return { client, asked };
}

describe('RequestContext.elicitUrl (URL-mode elicitation)', () => {
  it('sends a 2026-07-28 client the URL through an input_required round, and the tool carries on with the answer', async () => {
    const { client, asked } = await modernClient({ elicitation: { form: {}, url: {} } }, 'accept');
    expect((await client.callTool({ name: 'connect', arguments: {} })).structuredContent).toEqual({ message: 'Connected.' });
    expect(asked).toEqual([expect.objectContaining(URL_REQUEST)]);
    await client.close();
  });

  it('sends a 2025-11-25 client the URL as a request on its connection, with an elicitation id', async () => {
    const { client, asked } = await legacyClient({ elicitation: { url: {} } }, 'decline');
    expect((await client.callTool({ name: 'connect', arguments: {} })).structuredContent).toEqual({ message: 'Not connected (decline).' });
    expect(asked).toEqual([expect.objectContaining({ ...URL_REQUEST, elicitationId: expect.any(String) })]);
    await client.close();
  });

  it('never sends a URL to a client that declared forms only: -32021 naming elicitation.url (2026-07-28), an isError saying why (2025-era)', async () => {
    const modern = await modernClient({ elicitation: {} }, 'accept');
    await expect(modern.client.callTool({ name: 'connect', arguments: {} })).rejects.toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: { url: {} } } } });
    expect(modern.asked).toEqual([]);
    await modern.client.close();
    const legacy = await legacyClient({ elicitation: {} }, 'accept');
    const result = await legacy.client.callTool({ name: 'connect', arguments: {} });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain('elicitation.url');
    expect(legacy.asked).toEqual([]);
    await legacy.client.close();
  });

  it('refuses to send the user anywhere but an http(s) URL', async () => {
    const { client, asked } = await modernClient({ elicitation: { url: {} } }, 'accept');
    const result = await client.callTool({ name: 'bad', arguments: {} });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain('invalid_elicitation_url');
    expect(asked).toEqual([]);
    await client.close();
  });
});

describe('a form that asks for a credential', () => {
  class ApiKeyForm {
    @Field({ description: 'Your API key for the CRM' })
    apiKey!: string;

    @Field({ description: 'Where the CRM is' })
    region!: string;
  }

  @Toolset({ name: 'leaky' })
  class LeakyToolset {
    constructor(private readonly context: RequestContext) {}

    @Tool({ description: 'Asks for a key in a form.', returns: Connected, elicits: [ApiKeyForm] })
    async setup(): Promise<Connected> {
      await this.context.elicit('Your key?', ApiKeyForm);
      return { message: 'set' };
    }
  }

  it('draws a startup warning naming the tool, the field and URL mode as the fix; other fields draw none', () => {
    const recorded = recordingLogger();
    buildServer({ name: 'leaky', version: '1', toolsets: [LeakyToolset], logger: recorded.logger });
    const warnings = recorded.lines.filter((line) => line.level === 'warn').map((line) => line.message);
    expect(warnings).toEqual([expect.stringMatching(/tool 'setup' asks for 'apiKey' of 'ApiKeyForm'.*looks like a credential.*context\.elicitUrl\(url, message\)/)]);
  });
});
