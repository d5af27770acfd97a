import 'reflect-metadata';
import { buildServer, Field, RequestContext, Tool, ToolResult, Toolset } from '../../src';
import { connectClient, connectLegacyClient, recordingLogger } from '../support/connect';

class WaitResult extends ToolResult {
  @Field()
  aborted!: boolean;
}

/** Resolves when the tool saw its signal abort, so a test can wait for it. */
let sawAbort: (reason: unknown) => void = () => undefined;

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
        sawAbort(signal.reason);
        done();
      });
    });
    return { message: 'stopped', aborted: signal.aborted };
  }
}

function serverWithWaitingTool() {
  return buildServer({ name: 'wait', version: '1', toolsets: [WaitingToolset], logger: recordingLogger().logger });
}

describe("the tool's AbortSignal", () => {
  it('aborts when a 2026-07-28 client cancels the call', async () => {
    const client = await connectClient(serverWithWaitingTool());
    const aborted = new Promise((resolve) => (sawAbort = resolve));
    const controller = new AbortController();
    const call = client.callTool({ name: 'wait', arguments: {} }, { signal: controller.signal });
    setTimeout(() => controller.abort('user pressed stop'), 50);
    await expect(call).rejects.toThrow();
    await expect(aborted).resolves.toBeDefined();
    await client.close();
  });

  it('aborts when a 2025-era client cancels the call', async () => {
    const client = await connectLegacyClient(serverWithWaitingTool());
    const aborted = new Promise((resolve) => (sawAbort = resolve));
    const controller = new AbortController();
    const call = client.callTool({ name: 'wait', arguments: {} }, undefined, { signal: controller.signal });
    setTimeout(() => controller.abort('user pressed stop'), 50);
    await expect(call).rejects.toThrow();
    await expect(aborted).resolves.toBeDefined();
    await client.close();
  });
});
