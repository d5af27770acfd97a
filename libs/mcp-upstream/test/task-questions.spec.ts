import { dirname, join } from 'node:path';
import { UpstreamConnection } from '../src/upstream-connection';
import { closeUpstreams } from '../src/live-connections';
import type { ResolvedUpstreamSettings } from '../src/upstream-settings';

// The reference server from npm over stdio. Told that its client answers elicitation (as a library
// that relays the upstream's tasks says), it offers `trigger-elicitation-request`, which asks
// outside any task: on a connection every caller shares, nothing says whose question that is.
const EVERYTHING = join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist/index.js');

const settings: ResolvedUpstreamSettings = { name: 'everything', transport: { kind: 'stdio', command: process.execPath, args: [EVERYTHING, 'stdio'] }, secrets: {}, tasks: true };

afterAll(() => closeUpstreams());

describe("an upstream's questions on a connection that relays its tasks", () => {
  it('refuses a question that names no task relayed on the connection, saying why, and logs it', async () => {
    const warnings: { message: string; fields?: Record<string, unknown> }[] = [];
    const logger = { info: () => undefined, warn: (message: string, fields?: Record<string, unknown>) => void warnings.push({ message, ...(fields && { fields }) }), error: () => undefined };
    const connection = new UpstreamConnection(settings, undefined, logger);
    try {
      const client = await connection.client(AbortSignal.timeout(30_000));
      const offered = (await client.listTools()).tools.map((tool) => tool.name);
      expect(offered).toContain('trigger-elicitation-request');
      // The upstream gets the refusal as the answer to its request, and fails its call with it.
      const outcome = await client.callTool({ name: 'trigger-elicitation-request', arguments: {} }).then(
        (result) => JSON.stringify(result),
        (error: Error) => error.message,
      );
      expect(outcome).toContain('or a task it relays');
      expect(warnings).toContainEqual({ message: 'upstream MCP server asked a question that belongs to no call relayed to it; refused', fields: { upstream: 'everything', method: 'elicitation/create' } });
    } finally {
      await connection.close();
    }
  });
});
