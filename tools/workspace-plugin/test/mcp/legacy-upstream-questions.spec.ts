import 'reflect-metadata';
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { RequestContext, Result, Tool, ToolError, ToolResult, Toolset, type ClassType } from '@toolsets/core';
import { connectToolset, freePort, recordingLogger } from '@toolsets/testing';
import { closeUpstreams, McpUpstream } from '@toolsets/mcp-upstream';

// The reference server from npm over streamable HTTP, a 2025-era server: told that its client
// answers elicitation, its `trigger-elicitation-request` asks for a form mid-call, on the response
// stream of the call, and answers with what it was told.
const EVERYTHING = join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist/index.js');

let child: ChildProcess;
let upstream: McpUpstream;
const logger = recordingLogger();

@Result({ description: 'What the upstream answered.' })
class Answered extends ToolResult {}

@Toolset({ name: 'asks', description: 'Calls an upstream tool that asks a question mid-call.' })
class AsksToolset {
  constructor(private readonly context: RequestContext) {}

  @Tool({ description: 'Asks the user for a form, through the upstream.', returns: [Answered, ToolError] })
  ask(): Promise<Answered | ToolError> {
    return upstream.call({ tool: 'trigger-elicitation-request', output: 'content' }, this.context) as Promise<Answered | ToolError>;
  }
}

beforeAll(async () => {
  const port = await freePort();
  child = spawn(process.execPath, [EVERYTHING, 'streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    let said = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      said += chunk.toString();
      if (/listening on port \d+/.test(said)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`server-everything exited (${code}): ${said}`)));
  });
  upstream = new McpUpstream({ name: 'everything', transport: { kind: 'http', url: `http://127.0.0.1:${port}/mcp` }, secrets: {} }, { kind: 'legacy' }, logger);
});

afterAll(async () => {
  await upstream?.close();
  await closeUpstreams();
  child?.kill();
});

/** Alice and Bob call `toolset`'s `ask` at once, each answering the form with their own name: each must get back the answer they gave. */
async function twoCallersAsk(toolset: ClassType, era: 'legacy' | 'modern'): Promise<void> {
  const caller = (name: string) => connectToolset(toolset, { era, onElicit: async () => ({ action: 'accept', content: { name, check: true } }) });
  const [alice, bob] = await Promise.all([caller('alice'), caller('bob')]);
  try {
    const [first, second] = await Promise.all([alice.call('ask'), bob.call('ask')]);
    expect(first.isError).toBeFalsy();
    expect((first.structuredContent as { message: string }).message).toContain('- Name: alice');
    expect((second.structuredContent as { message: string }).message).toContain('- Name: bob');
  } finally {
    await alice.close();
    await bob.close();
  }
}

describe("a 2025-era upstream's question asked mid-call over HTTP", () => {
  it.each(['legacy', 'modern'] as const)('reaches the caller whose call it belongs to, with two callers asking at once, and their answers go back (%s callers)', async (era) => {
    await twoCallersAsk(AsksToolset, era);
  });

  it('is refused to the upstream with why when the caller cannot answer it, and the call says what the upstream made of that', async () => {
    const cannot = await connectToolset(AsksToolset, { era: 'legacy' });
    try {
      const result = await cannot.call('ask');
      const said = JSON.stringify(result.structuredContent);
      // The upstream failed its tool with the refusal it was given.
      expect(result.isError).toBe(true);
      expect(said).toContain('needs to ask the user a question (elicitation), which this client does not support (it declared no elicitation capability)."');
    } finally {
      await cannot.close();
    }
  });
});

// The same reference server over stdio: one child for every caller, and a 2025-era request over a
// pipe says nothing of whose it is. With its calls made one at a time, a question belongs to the one call running.
describe("a 2025-era upstream's question asked mid-call over stdio", () => {
  const stdio = (oneCallAtATime: boolean) => new McpUpstream({ name: 'everything', transport: { kind: 'stdio', command: process.execPath, args: [EVERYTHING, 'stdio'] }, secrets: {}, oneCallAtATime }, { kind: 'legacy' }, logger);

  @Toolset({ name: 'asks-stdio', description: 'Calls a stdio upstream tool that asks a question mid-call.' })
  class AsksOverStdio {
    static upstream: McpUpstream;
    constructor(private readonly context: RequestContext) {}

    @Tool({ description: 'Asks the user for a form, through the upstream.', returns: [Answered, ToolError] })
    ask(): Promise<Answered | ToolError> {
      return AsksOverStdio.upstream.call({ tool: 'trigger-elicitation-request', output: 'content' }, this.context) as Promise<Answered | ToolError>;
    }
  }

  afterEach(async () => {
    await AsksOverStdio.upstream?.close();
  });

  it.each(['legacy', 'modern'] as const)('reaches each caller in turn when the calls are made one at a time, with two callers asking at once (%s callers)', async (era) => {
    AsksOverStdio.upstream = stdio(true);
    await twoCallersAsk(AsksOverStdio, era);
  });

  it('is not offered to be asked when the calls are not made one at a time', async () => {
    AsksOverStdio.upstream = stdio(false);
    const asking = await connectToolset(AsksOverStdio, { era: 'legacy', onElicit: async () => ({ action: 'accept', content: { name: 'alice', check: true } }) });
    try {
      const result = await asking.call('ask');
      // The connection did not say it answers elicitation: the upstream's tool says it cannot ask.
      console.log(JSON.stringify(result));
      expect(JSON.stringify(result.structuredContent)).not.toContain('- Name: alice');
    } finally {
      await asking.close();
    }
  });
});
