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
  it('names the selections a request can make (?mode=code only where a server serves code mode) and how to open the Inspector on any Node', async () => {
    const server = buildServer({ name: 'echo', version: '1.0.0', toolsets: [EchoToolset], logger: quiet });
    const http = await serveHttp(server, { port: 0, drainDelayMs: 0, logger: quiet });
    try {
      const printed = banner(http, [server], {});
      expect(printed).toContain(`MCP over streamable HTTP on ${http.origin}`);
      expect(printed).toContain('  select per request: ?toolsets=<group>,<group>  ?readonly=1  ?mode=discovery (or X-MCP-Toolsets, X-MCP-Readonly, X-MCP-Mode)');
      expect(printed).not.toContain('?mode=code');
      // The current Inspector needs Node 22.19+; on Node 20 plain npx installs an old one: the banner gives the command that works.
      expect(printed).toContain(`  inspect: npx @modelcontextprotocol/inspector (Node 22.19+; on Node 20: npx -y -p node@22 -p @modelcontextprotocol/inspector mcp-inspector), then "Streamable HTTP" and ${http.mounts[0]!.url}`);
    } finally {
      await http.close();
    }
  });
});
