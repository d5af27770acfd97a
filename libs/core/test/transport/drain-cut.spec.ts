import 'reflect-metadata';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyHttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { injectable } from 'tsyringe';
import { buildServer, Prompt, RequestContext, serveHttp, Tool, ToolResult, Toolset, userMessage, type HttpServeOptions } from '../../src';
import { recordingLogger } from '../support/connect';

/** What the stuck members saw: how many began, and how many were told, through their signal, to stop. */
const seen = { began: 0, stopped: 0 };
/** What the stuck members wait for, and what lets them all end once a test is done with them. */
let released = Promise.resolve();
let releaseAll: () => void = () => undefined;

/** Each test's members wait anew, counted from zero. */
function holdMembers(): void {
  released = new Promise<void>((resolve) => (releaseAll = resolve));
  seen.began = seen.stopped = 0;
}

/** Members that do not end until the test lets them, as ones waiting on a stuck upstream. */
@injectable()
@Toolset({ name: 'stuck' })
class StuckToolset {
  constructor(private readonly context: RequestContext) {}

  @Tool({ description: 'Answers once the test lets it.', returns: ToolResult })
  async stuck(): Promise<ToolResult> {
    await this.wait();
    return { message: 'late' };
  }

  @Prompt({ description: 'A brief, once the test lets it.' })
  async brief() {
    await this.wait();
    return [userMessage('late')];
  }

  private async wait(): Promise<void> {
    seen.began++;
    this.context.signal.addEventListener('abort', () => seen.stopped++, { once: true });
    await released;
  }
}

// A client left without an answer waits out its own request timeout (60 s in the SDK's client); a
// bound of ten minutes makes such a wait fail the test on Jest's bound rather than pass slowly.
const NO_ANSWER_BOUND = { timeout: 10 * 60_000 };
const SHUTTING_DOWN = "Shutting down: this request was still running when the server's drain ended (DRAIN_TIMEOUT_MS, 200 ms) and was stopped. Send it again";

/**
 * Serves the stuck toolset with `options` (no quiet period to wait for, and a 200 ms drain the
 * members are sure to outlast: they end only when released), makes `requests` from a 2026-07-28
 * and a 2025-era client, ends the server once every member has begun, and gives what each request
 * ended with and what the server warned.
 */
async function drainWith(options: HttpServeOptions, requests: (modern: Client, legacy: LegacyClient) => Promise<unknown>[]): Promise<{ messages: string[]; warnings: string[] }> {
  holdMembers();
  const { lines, logger } = recordingLogger();
  const http = await serveHttp(buildServer({ name: 'stuck', version: '1.0.0', toolsets: [StuckToolset], logger }), { port: 0, logger, drainQuietMs: 0, drainTimeoutMs: 200, ...options });
  const url = new URL(`${http.origin}/mcp`);
  const modern = new Client({ name: 'drain-cut', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  const legacy = new LegacyClient({ name: 'drain-cut-2025', version: '1' });
  try {
    await modern.connect(new StreamableHTTPClientTransport(url));
    await legacy.connect(new LegacyHttpTransport(url));
    const outcomes = requests(modern, legacy).map((call) => call.then(() => 'answered as if nothing happened', (error: Error) => error.message));
    while (seen.began < outcomes.length) await new Promise((resolve) => setTimeout(resolve, 5));

    const closed = http.close();
    const messages = await Promise.all(outcomes);
    // At once: a 2025-era client whose stream ended without a result schedules a reconnection to resume it.
    await legacy.close();
    await closed;
    return { messages, warnings: lines.filter((line) => line.level === 'warn').map((line) => line.message) };
  } finally {
    releaseAll();
    await modern.close().catch(() => undefined);
    await legacy.close().catch(() => undefined);
    await http.close();
  }
}

describe('the drain, at DRAIN_TIMEOUT_MS, with requests still running', () => {
  it('answers each with "Shutting down" (-32000) in both eras, on the fast path and the SDK path, stops it, and says how many it cut', async () => {
    const { messages, warnings } = await drainWith({}, (modern, legacy) => [
      // 2026-07-28 on the fast path: a JSON answer, not begun when the drain ends.
      modern.callTool({ name: 'stuck', arguments: {} }, NO_ANSWER_BOUND),
      // 2025 era on the fast path: an event stream, its head sent when the call began.
      legacy.callTool({ name: 'stuck', arguments: {} }, undefined, NO_ANSWER_BOUND),
      // Through the SDK's handler (prompts have no fast path).
      modern.getPrompt({ name: 'brief' }, NO_ANSWER_BOUND),
    ]);
    for (const message of messages) expect(message).toContain(SHUTTING_DOWN);
    // The 2025-era answer came as a JSON-RPC error on its stream; the 2026-07-28 one as a 503 with the error as its body.
    expect(messages[1]).toMatch(/^MCP error -32000: /);
    expect(messages[0]).toContain('"code":-32000');
    expect(seen.stopped).toBe(3);
    expect(warnings).toContain('3 request(s) still running at DRAIN_TIMEOUT_MS (200 ms) were answered "Shutting down" (-32000) and stopped');
  }, 60_000);

  it("answers them the same through the SDK's own transports: 2025-era sessions, and every call off the fast path", async () => {
    const { messages, warnings } = await drainWith({ sessions: true, fastPath: false }, (modern, legacy) => [
      modern.callTool({ name: 'stuck', arguments: {} }, NO_ANSWER_BOUND),
      legacy.callTool({ name: 'stuck', arguments: {} }, undefined, NO_ANSWER_BOUND),
    ]);
    for (const message of messages) expect(message).toContain(SHUTTING_DOWN);
    expect(seen.stopped).toBe(2);
    expect(warnings).toContain('2 request(s) still running at DRAIN_TIMEOUT_MS (200 ms) were answered "Shutting down" (-32000) and stopped');
  }, 60_000);
});
