import 'reflect-metadata';
import { banner, buildServer, Field, serveHttp, Tool, ToolResult, Toolset, type Logger } from '../../src';

class EchoResult extends ToolResult {
  @Field({ description: 'What was sent.' })
  text!: string;
}

@Toolset({ name: 'echo', description: 'Echoes.' })
class EchoToolset {
  @Tool({ description: 'Echo a greeting.', returns: EchoResult })
  echo(): EchoResult {
    return { message: 'echoed', text: 'hi' };
  }
}

const quiet: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe('the banner an app prints when it serves over HTTP', () => {
  it('names the selections a request can make, ?mode=code only where a server serves code mode', async () => {
    const server = buildServer({ name: 'echo', version: '1.0.0', toolsets: [EchoToolset], logger: quiet });
    const http = await serveHttp(server, { port: 0, drainDelayMs: 0, logger: quiet });
    try {
      const printed = banner(http, [server], {});
      expect(printed).toContain(`MCP over streamable HTTP on ${http.origin}`);
      expect(printed).toContain('  select per request: ?toolsets=<group>,<group>  ?readonly=1  ?mode=discovery (or X-MCP-Toolsets, X-MCP-Readonly, X-MCP-Mode)');
      expect(printed).not.toContain('?mode=code');
    } finally {
      await http.close();
    }
  });
});
