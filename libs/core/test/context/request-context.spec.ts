import 'reflect-metadata';
import { inspect } from 'node:util';
import { inject, injectable, Lifecycle, container as rootContainer } from 'tsyringe';
import { IsOptional } from 'class-validator';
import { buildServer, Field, RequestContext, Tool, ToolResult, Toolset, type ServerDefinition } from '../../src';
import { connectClient, connectLegacyClient, recordingLogger } from '../support/connect';

class ContextResult extends ToolResult {
  @Field()
  era!: string;

  @Field()
  transport!: string;

  @Field()
  @IsOptional()
  client?: string;

  @Field()
  @IsOptional()
  traceId?: string;
}

class TokenResult extends ToolResult {
  @Field()
  length!: number;
}

const GREETING = Symbol('greeting');

@injectable()
class Counter {
  count = 0;
}

@Toolset({ name: 'ctx', credentialHeaders: ['x-api-key'] })
class ContextToolset {
  constructor(
    private readonly context: RequestContext,
    @inject(GREETING) private readonly greeting: string,
    private readonly counter: Counter,
  ) {}

  @Tool({ description: 'Report what the request context says.', returns: ContextResult })
  describe(): ContextResult {
    return {
      message: `${this.greeting} #${++this.counter.count}`,
      era: this.context.era,
      transport: this.context.transport,
      client: this.context.client?.name,
      traceId: this.context.header('X-Trace-Id'),
    };
  }

  @Tool({ description: 'Read the API key.', returns: TokenResult })
  key(): TokenResult {
    return { message: 'ok', length: this.context.credential('x-api-key').length };
  }

  @Tool({ description: 'Read a credential it never declared.', returns: TokenResult })
  sneaky(): TokenResult {
    return { message: 'no', length: this.context.credential('x-other-secret').length };
  }

  @Tool({ description: 'Report progress twice.', returns: TokenResult })
  async slow(): Promise<TokenResult> {
    await this.context.progress(1, 2, 'half way');
    await this.context.progress(2, 2);
    return { message: 'done', length: 0 };
  }
}

function serverWith(): ServerDefinition {
  const container = rootContainer.createChildContainer();
  container.register(GREETING, { useValue: 'hello' });
  container.register(Counter, { useClass: Counter }, { lifecycle: Lifecycle.Singleton });
  return buildServer({ name: 'ctx', version: '1', toolsets: [ContextToolset], container, logger: recordingLogger().logger });
}

const textOf = (result: { content?: unknown }) => (result.content as { text: string }[])[0].text;

describe('RequestContext', () => {
  it('is injected per call with the era, transport, client and headers of that call', async () => {
    const server = serverWith();
    const modern = await connectClient(server, { headers: { 'X-Trace-Id': 't-1' } });
    const legacy = await connectLegacyClient(server, { headers: { 'x-trace-id': 't-2' } });

    expect((await modern.callTool({ name: 'describe' })).structuredContent).toEqual({
      message: 'hello #1',
      era: 'modern',
      transport: 'memory',
      client: 'core-test',
      traceId: 't-1',
    });
    expect((await legacy.callTool({ name: 'describe' })).structuredContent).toEqual({
      message: 'hello #2',
      era: 'legacy',
      transport: 'memory',
      client: 'core-test-2025',
      traceId: 't-2',
    });
    await Promise.all([modern.close(), legacy.close()]);
  });

  it('reads a declared credential header, and explains how to configure it when it is missing', async () => {
    const server = serverWith();
    const withKey = await connectClient(server, { headers: { 'x-api-key': 'k-123456' } });
    expect((await withKey.callTool({ name: 'key' })).structuredContent).toEqual({ message: 'ok', length: 8 });

    const without = await connectClient(server);
    const missing = await without.callTool({ name: 'key' });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toContain('send the `x-api-key` header with every request');
    expect(textOf(missing)).toContain('X_API_KEY environment variable');
    expect(textOf(missing)).toContain('cannot be passed as a tool argument');
    await Promise.all([withKey.close(), without.close()]);
  });

  it('reports reading an undeclared credential header as a clear error on the call', async () => {
    const client = await connectClient(serverWith(), { headers: { 'x-other-secret': 'zzz' } });
    const result = await client.callTool({ name: 'sneaky' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("Toolset 'ctx' read the credential header 'x-other-secret' without declaring it");
    expect(textOf(result)).toContain("@Toolset({ credentialHeaders: ['x-other-secret'] })");
    expect(textOf(result)).not.toContain('zzz');
    await client.close();
  });

  it('reads stdio credentials from the environment variable named after the header', async () => {
    const client = await connectClient(serverWith(), { transport: 'stdio', environment: { X_API_KEY: 'from-env' } });
    expect((await client.callTool({ name: 'key' })).structuredContent).toEqual({ message: 'ok', length: 8 });
    await client.close();
  });

  it('sends progress notifications when the client asks for them', async () => {
    const client = await connectClient(serverWith());
    const seen: unknown[] = [];
    const result = await client.callTool({ name: 'slow' }, { onprogress: (progress) => seen.push(progress) });
    expect(result.structuredContent).toEqual({ message: 'done', length: 0 });
    expect(seen).toEqual([
      { progress: 1, total: 2, message: 'half way' },
      { progress: 2, total: 2 },
    ]);
    await client.close();
  });

  it('keeps every concurrent call in its own context', async () => {
    const server = serverWith();
    const clients = await Promise.all(
      Array.from({ length: 40 }, (_, i) => connectClient(server, { headers: { 'x-trace-id': `trace-${i}` } })),
    );
    const results = await Promise.all(
      clients.flatMap((client, i) =>
        Array.from({ length: 5 }, async () => [i, (await client.callTool({ name: 'describe' })).structuredContent] as const),
      ),
    );
    const mismatches = results.filter(([i, content]) => (content as { traceId: string }).traceId !== `trace-${i}`);
    expect(results).toHaveLength(200);
    expect(mismatches).toEqual([]);
    await Promise.all(clients.map((client) => client.close()));
  });

  it('never shows header values when logged', () => {
    const context = new RequestContext({
      transport: 'http',
      era: 'modern',
      toolset: 't',
      tool: 'x',
      credentialHeaders: ['x-api-key'],
      headers: { get: () => 'super-secret', entries: () => ({ 'x-api-key': 'super-secret' }) },
      signal: new AbortController().signal,
      client: () => undefined,
    });
    expect(inspect(context, { depth: 5 })).not.toContain('super-secret');
    expect(JSON.stringify(context)).not.toContain('super-secret');
  });
});
