import 'reflect-metadata';
import { buildServer, Field, RequestContext, Tool, ToolResult, Toolset } from '../../src';
import { connectClient, connectLegacyClient, recordingLogger } from '../support/connect';

class WaitResult extends ToolResult {
  @Field()
  aborted!: boolean;
}

/** A server whose `wait` tool says when it has started listening and when its signal aborted. */
function serverWithWaitingTool() {
  let started!: () => void;
  let aborted!: (reason: unknown) => void;
  const events = {
    started: new Promise<void>((resolve) => (started = resolve)),
    aborted: new Promise<unknown>((resolve) => (aborted = resolve)),
  };

  @Toolset({ name: 'waiting' })
  class WaitingToolset {
    constructor(private readonly context: RequestContext) {}

    @Tool({ description: 'Wait until cancelled (or 5 s).', returns: WaitResult })
    async wait(): Promise<WaitResult> {
      const { signal } = this.context;
      await new Promise<void>((done) => {
        const timer = setTimeout(done, 5000);
        signal.addEventListener('abort', () => {
          clearTimeout(timer);
          aborted(signal.reason);
          done();
        });
        started();
      });
      return { message: 'stopped', aborted: signal.aborted };
    }
  }
  return { server: buildServer({ name: 'wait', version: '1', toolsets: [WaitingToolset], logger: recordingLogger().logger }), events };
}

describe("the tool's AbortSignal", () => {
  it('aborts when a 2026-07-28 client cancels the call', async () => {
    const { server, events } = serverWithWaitingTool();
    const client = await connectClient(server);
    const controller = new AbortController();
    const call = client.callTool({ name: 'wait', arguments: {} }, { signal: controller.signal });
    await events.started;
    controller.abort('user pressed stop');
    await call.catch(() => undefined);
    // The server's signal aborted with the reason the client sent in notifications/cancelled; the
    // client's own promise rejects locally either way, so it proves nothing about the server.
    await expect(events.aborted).resolves.toBe('user pressed stop');
    await client.close();
  });

  it('aborts when a 2025-era client cancels the call', async () => {
    const { server, events } = serverWithWaitingTool();
    const client = await connectLegacyClient(server);
    const controller = new AbortController();
    const call = client.callTool({ name: 'wait', arguments: {} }, undefined, { signal: controller.signal });
    await events.started;
    controller.abort('user pressed stop');
    await call.catch(() => undefined);
    // The server's signal aborted with the reason the client sent in notifications/cancelled; the
    // client's own promise rejects locally either way, so it proves nothing about the server.
    await expect(events.aborted).resolves.toBe('user pressed stop');
    await client.close();
  });
});
