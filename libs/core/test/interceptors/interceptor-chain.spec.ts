import 'reflect-metadata';
import { injectable } from 'tsyringe';
import {
  buildServer,
  Cache,
  ContractError,
  Field,
  Prompt,
  RequestContext,
  serveHttp,
  Tool,
  ToolError,
  ToolResult,
  Toolset,
  UseInterceptors,
  userMessage,
  type CallNext,
  type HttpServerHandle,
  type ToolCall,
  type ToolInterceptor,
} from '../../src';
import { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { connectClient, connectLegacyClient, recordingLogger } from '../support/connect';

class EchoResult extends ToolResult {
  @Field()
  text!: string;
}

class EchoArgs {
  @Field()
  text!: string;
}

/** Every interceptor run, in order, with what it saw. */
const seen: string[] = [];

/** Records its name and the RequestContext the call's container gave it, then runs the rest. */
function recording(name: string) {
  @injectable()
  class Recording implements ToolInterceptor {
    constructor(private readonly context: RequestContext) {}
    async intercept(call: ToolCall, next: CallNext) {
      seen.push(`${name}:${this.context.tool}:${JSON.stringify(call.args)}`);
      return next();
    }
  }
  Object.defineProperty(Recording, 'name', { value: name });
  return Recording;
}

class Refuse implements ToolInterceptor {
  intercept(call: ToolCall) {
    return new ToolError('refused', `no ${call.name} today`);
  }
}

class ThrowRefusal implements ToolInterceptor {
  intercept(): never {
    throw new ToolError('refused', 'thrown');
  }
}

class WrongShape implements ToolInterceptor {
  intercept() {
    return { message: 'short-circuit', text: 42 };
  }
}

@UseInterceptors(recording('toolset'))
@Toolset({ name: 'echo' })
class EchoToolset {
  @UseInterceptors(recording('tool'))
  @Tool({ description: 'Echo the text back.', args: EchoArgs, returns: EchoResult })
  echo({ text }: EchoArgs): EchoResult {
    seen.push('tool ran');
    return { message: text, text };
  }

  @UseInterceptors(Refuse)
  @Tool({ description: 'Refused with a declared ToolError.', returns: [EchoResult, ToolError] })
  refusedDeclared(): EchoResult {
    seen.push('tool ran');
    return { message: 'ran', text: 'ran' };
  }

  @UseInterceptors(ThrowRefusal)
  @Tool({ description: 'Refused with a thrown ToolError it does not declare.', returns: EchoResult })
  refusedUndeclared(): EchoResult {
    seen.push('tool ran');
    return { message: 'ran', text: 'ran' };
  }

  @UseInterceptors(WrongShape)
  @Tool({ description: 'An interceptor answers with the wrong shape.', returns: EchoResult })
  wrongShape(): EchoResult {
    return { message: 'ran', text: 'ran' };
  }
}

beforeEach(() => (seen.length = 0));

describe('interceptors around a tool call', () => {
  it('run app, then toolset, then tool, each from the call container with the validated args, in both eras', async () => {
    const logger = recordingLogger().logger;
    const server = buildServer({ name: 'chain', version: '1', toolsets: [EchoToolset], logger, interceptors: [recording('app')] });
    for (const client of [await connectClient(server), await connectLegacyClient(server)]) {
      seen.length = 0;
      const result = await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
      expect(result.structuredContent).toEqual({ message: 'hi', text: 'hi' });
      expect(seen).toEqual(['app:echo:{"text":"hi"}', 'toolset:echo:{"text":"hi"}', 'tool:echo:{"text":"hi"}', 'tool ran']);
      await client.close();
    }
  });

  it('do not run for arguments that fail validation', async () => {
    const client = await connectClient(buildServer({ name: 'chain', version: '1', toolsets: [EchoToolset], logger: recordingLogger().logger }));
    const result = await client.callTool({ name: 'echo', arguments: { text: 7 } });
    expect(result.isError).toBe(true);
    expect(seen).toEqual([]);
    await client.close();
  });

  it('answer without running the tool: a declared ToolError is sent structured, an undeclared one as text', async () => {
    const client = await connectClient(buildServer({ name: 'chain', version: '1', toolsets: [EchoToolset], logger: recordingLogger().logger }));
    const declared = await client.callTool({ name: 'refused_declared', arguments: {} });
    expect(declared).toMatchObject({ isError: true, structuredContent: { error: 'refused', detail: 'no refused_declared today' } });
    const undeclared = await client.callTool({ name: 'refused_undeclared', arguments: {} });
    expect(undeclared).toMatchObject({ isError: true, content: [{ type: 'text', text: 'refused: thrown' }] });
    expect(undeclared.structuredContent).toBeUndefined();
    expect(seen.filter((s) => s === 'tool ran')).toEqual([]);
    await client.close();
  });

  it("validate an interceptor's own answer like the tool's: the wrong shape is never sent", async () => {
    const { logger, lines } = recordingLogger();
    const client = await connectClient(buildServer({ name: 'chain', version: '1', toolsets: [EchoToolset], logger }));
    const result = await client.callTool({ name: 'wrong_shape', arguments: {} });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result)).not.toContain('short-circuit');
    expect(lines.some((line) => line.message === 'tool returned a result that does not match its declared output')).toBe(true);
    await client.close();
  });
});

describe('the caller an interceptor sees over HTTP', () => {
  let http: HttpServerHandle;
  const callers: unknown[] = [];

  class CallerProbe implements ToolInterceptor {
    intercept(call: ToolCall, next: CallNext) {
      callers.push(call.caller);
      return next();
    }
  }

  @Toolset({ name: 'keyed', credentialHeaders: ['x-api-key'] })
  class KeyedToolset {
    @Tool({ description: 'Echo.', args: EchoArgs, returns: EchoResult })
    echo({ text }: EchoArgs): EchoResult {
      return { message: text, text };
    }
  }

  beforeAll(async () => {
    const logger = recordingLogger().logger;
    http = await serveHttp(buildServer({ name: 'keyed', version: '1', toolsets: [KeyedToolset], logger, interceptors: [CallerProbe] }), { port: 0, logger });
  });
  afterAll(() => http.close());

  it('has the peer address and a hash of the credential, never its value', async () => {
    for (const key of ['secret-one', 'secret-two']) {
      const client = new Client({ name: 'probe', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(http.mounts[0]!.url), { requestInit: { headers: { 'x-api-key': key } } }));
      await client.callTool({ name: 'echo', arguments: { text: 'x' } });
      await client.close();
    }
    expect(callers).toHaveLength(2);
    const [one, two] = callers as { credentialHash: string; credentials: string[]; address: string; authenticated: boolean }[];
    expect(one).toMatchObject({ authenticated: false, credentials: ['x-api-key'], address: expect.stringMatching(/127\.0\.0\.1$/) });
    expect(one!.credentialHash).toMatch(/^[0-9a-f]{64}$/);
    expect(one!.credentialHash).not.toBe(two!.credentialHash);
    expect(JSON.stringify(callers)).not.toContain('secret');
  });
});

describe('the startup gate on interceptors', () => {
  function gateErrors(define: () => unknown[], interceptors?: unknown[]): string[] {
    try {
      buildServer({ name: 'gated', version: '1', toolsets: define() as never, interceptors: interceptors as never, logger: recordingLogger().logger });
    } catch (error) {
      expect(error).toBeInstanceOf(ContractError);
      return (error as ContractError).violations.map((v) => v.message);
    }
    throw new Error('the gate let it through');
  }

  it('refuses what cannot run around a call, naming the tool, the class and the fix', () => {
    class NoMethod {}
    class NeedsService {
      constructor(readonly service: unknown) {}
      intercept(_call: ToolCall, next: CallNext) {
        return next();
      }
    }
    const messages = gateErrors(() => {
      @Toolset({ name: 'broken' })
      class Broken {
        @UseInterceptors(NoMethod as never, NeedsService, { intercept: () => undefined } as never)
        @Tool({ description: 'Writes.', returns: EchoResult })
        write(): EchoResult {
          return { message: 'ok', text: 'ok' };
        }

        @UseInterceptors(Cache({ ttlMs: 1000 }))
        @Tool({ description: 'Writes too.', returns: EchoResult })
        writeToo(): EchoResult {
          return { message: 'ok', text: 'ok' };
        }

        @UseInterceptors(Refuse)
        @Prompt({ description: 'A prompt.' })
        greet() {
          return [userMessage('hi')];
        }
      }
      return [Broken];
    }, ['not a class']);
    expect(messages).toEqual([
      expect.stringContaining("[toolset 'broken' > tool 'write'] @UseInterceptors on Broken.write() lists the class NoMethod as an interceptor, but it has no intercept(call, next) method."),
      expect.stringMatching(/\[toolset 'broken' > tool 'write'\] .*NeedsService, whose constructor takes 1 parameter\(s\).*Fix: decorate NeedsService with @injectable\(\)/),
      expect.stringMatching(/\[toolset 'broken' > tool 'write'\] .*lists an object \(Object\) as an interceptor, which is not a class\./),
      expect.stringContaining('@UseInterceptors is on Broken.greet(), which is not a @Tool'),
      expect.stringContaining(`buildServer 'gated' (interceptors) lists string "not a class" as an interceptor`),
      expect.stringMatching(/\[toolset 'broken' > tool 'write_too'\] The interceptor Cache cannot wrap this tool: .*not marked readOnlyHint.*Fix: if 'write_too' changes nothing, declare it @Tool\(\{ annotations: \{ readOnlyHint: true \} \}\)/),
    ]);
  });

  it('accepts an interceptor whose constructor injects, once it is @injectable', () => {
    expect(() => buildServer({ name: 'ok', version: '1', toolsets: [EchoToolset], interceptors: [recording('app')], logger: recordingLogger().logger })).not.toThrow();
  });
});
