import 'reflect-metadata';
import { buildServer, Field, Prompt, Resource, ResourceTemplate, serveHttp, Tool, ToolResult, Toolset, type HttpServerHandle, type ServerDefinition } from '../../src';
import { recordingLogger } from '../support/connect';

class Said extends ToolResult {}

class IdArgs {
  @Field()
  id!: string;
}

@Toolset({ name: 'bare' })
class BareToolset {
  @Tool({ description: 'Says hello.', returns: Said })
  hello(): Said {
    return { message: 'hello' };
  }
}

@Toolset({ name: 'full' })
class FullToolset {
  @Tool({ description: 'Says hello.', returns: Said })
  hello(): Said {
    return { message: 'hello' };
  }

  @Tool({ description: 'Works as a task.', returns: Said, task: 'optional' })
  work(): Said {
    return { message: 'done' };
  }

  @Prompt({ description: 'A prompt.' })
  greet() {
    return 'Hello.';
  }

  @Resource({ uri: 'note://readme', name: 'readme', description: 'The readme.', mimeType: 'text/plain' })
  readme() {
    return 'Read me.';
  }

  @ResourceTemplate({ uriTemplate: 'note://{id}', name: 'note', description: 'A note.', mimeType: 'text/plain', args: IdArgs })
  note({ id }: IdArgs) {
    return `Note ${id}.`;
  }
}

/** Each capability, and one request of each method it promises (params enough to be dispatched, not to succeed). */
const FAMILIES: Record<string, [method: string, params: Record<string, unknown>][]> = {
  tools: [
    ['tools/list', {}],
    ['tools/call', { name: 'hello', arguments: {} }],
  ],
  prompts: [
    ['prompts/list', {}],
    ['prompts/get', { name: 'greet' }],
  ],
  resources: [
    ['resources/list', {}],
    ['resources/templates/list', {}],
    ['resources/read', { uri: 'note://readme' }],
  ],
  completions: [['completion/complete', { ref: { type: 'ref/resource', uri: 'note://{id}' }, argument: { name: 'id', value: 'a' } }]],
  tasks: [
    ['tasks/get', { taskId: 'no-such-task' }],
    ['tasks/cancel', { taskId: 'no-such-task' }],
  ],
  // The grouping extension: every catalog is grouped by toolset.
  groups: [['groups/list', {}]],
  // 2025-era only: on the 2026-07-28 wire a request asks for its log level in _meta (logging/setLevel is removed).
  logging: [['logging/setLevel', { level: 'info' }]],
};

const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
const MODERN_META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'walker', version: '0' }, 'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS_EXTENSION]: {} } } };

type Era = 'modern' | 'legacy';

async function rpc(url: string, era: Era, method: string, params: Record<string, unknown>): Promise<{ result?: Record<string, unknown>; error?: { code: number; message: string } }> {
  const name = (params['name'] ?? params['uri'] ?? params['taskId']) as string | undefined;
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  if (era === 'modern') Object.assign(headers, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...(name && { 'mcp-name': name }) });
  else if (method !== 'initialize') headers['mcp-protocol-version'] = '2025-11-25';
  const body = era === 'modern' ? { ...params, _meta: MODERN_META } : params;
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: body }) });
  const text = await response.text();
  const json = text.startsWith('event:') || text.startsWith('data:') ? text.split('\n').find((line) => line.startsWith('data: '))!.slice(6) : text;
  return JSON.parse(json);
}

async function advertised(url: string, era: Era): Promise<Record<string, unknown>> {
  const answer =
    era === 'modern'
      ? await rpc(url, era, 'server/discover', {})
      : await rpc(url, era, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'walker', version: '0' } });
  return answer.result!['capabilities'] as Record<string, unknown>;
}

/** The families whose methods this server answers (anything but method-not-found), and those it does not. */
async function served(url: string, era: Era): Promise<{ answered: string[]; unknown: string[] }> {
  const answered: string[] = [];
  const unknown: string[] = [];
  for (const [family, requests] of Object.entries(FAMILIES)) {
    const codes = await Promise.all(requests.map(async ([method, params]) => (await rpc(url, era, method, params)).error?.code));
    const notFound = codes.filter((code) => code === -32601).length;
    // A family is served whole or not at all: half of one is its own bug.
    expect({ family, era, notFound }).toEqual({ family, era, notFound: notFound === 0 ? 0 : requests.length });
    (notFound === 0 ? answered : unknown).push(family);
  }
  return { answered, unknown };
}

describe('what a server advertises is exactly what it serves', () => {
  const handles: HttpServerHandle[] = [];
  const serve = async (definition: ServerDefinition) => {
    const handle = await serveHttp(definition, { port: 0 });
    handles.push(handle);
    return `${handle.origin}/mcp`;
  };
  afterAll(() => Promise.all(handles.map((handle) => handle.close())));

  it.each(['modern', 'legacy'] as const)('for a server of tools only and a server of everything, in both eras (%s)', async (era) => {
    for (const toolsets of [[BareToolset], [FullToolset]]) {
      const url = await serve(buildServer({ name: 'walked', version: '1', toolsets, logger: recordingLogger().logger }));
      const capabilities = await advertised(url, era);
      const { answered } = await served(url, era);
      // logging/setLevel is removed on the 2026-07-28 wire: there, logging is a level each request asks for.
      if (era === 'modern') expect(answered).not.toContain('logging');
      // The 2026-07-28 wire advertises tasks as the extension; 2025-11-25 as its own capability.
      const promised = Object.keys(FAMILIES).filter((family) => (era === 'modern' && family === 'logging' ? false : true)).filter((family) =>
        family === 'tasks'
          ? era === 'modern'
            ? (capabilities['extensions'] as Record<string, unknown> | undefined)?.[TASKS_EXTENSION] !== undefined
            : capabilities['tasks'] !== undefined
          : family === 'groups'
            ? (capabilities['extensions'] as Record<string, unknown> | undefined)?.['io.modelcontextprotocol/grouping'] !== undefined
            : capabilities[family] !== undefined,
      );
      expect({ toolsets: toolsets.map((cls) => cls.name), era, answered: answered.sort() }).toEqual({ toolsets: toolsets.map((cls) => cls.name), era, answered: promised.sort() });
      // Each era sees its own tasks declaration only.
      if (era === 'modern') expect(capabilities).not.toHaveProperty('tasks');
      else expect((capabilities['extensions'] as Record<string, unknown> | undefined)?.[TASKS_EXTENSION]).toBeUndefined();
    }
  });
});
