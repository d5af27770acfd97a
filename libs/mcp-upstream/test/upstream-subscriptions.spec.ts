import { dirname, join } from 'node:path';
import { McpUpstream } from '../src/mcp-upstream';
import { UpstreamConnection } from '../src/upstream-connection';
import { closeUpstreams } from '../src/live-connections';
import type { ResolvedUpstreamSettings } from '../src/upstream-settings';

// The reference server from npm over stdio: it logs every subscribe and unsubscribe it receives,
// and `toggle-subscriber-updates` makes it send each subscribed URI an update at once.
const EVERYTHING = join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist/index.js');
const DOCUMENT = 'demo://resource/static/document/architecture.md';
const OTHER = 'demo://resource/static/document/features.md';

const settings: ResolvedUpstreamSettings = {
  name: 'everything',
  transport: { kind: 'stdio', command: process.execPath, args: [EVERYTHING, 'stdio'] },
  secrets: {},
  watchable: { uris: [DOCUMENT, OTHER] },
};

/** What the upstream logged (relayed to the app's log), as its data lines. */
function recordingLogger() {
  const lines: string[] = [];
  const record = (message: string, fields?: unknown) => {
    if (message === 'upstream MCP server logged') lines.push(String((fields as { data?: unknown }).data));
  };
  return { lines, logger: { info: record, warn: record, error: record } };
}

const received = (lines: readonly string[], what: 'Subscribe' | 'Unsubscribe', uri: string) =>
  lines.filter((line) => line.includes(`Received ${what} Resource request`) && line.includes(uri)).length;

afterAll(() => closeUpstreams());

describe("an upstream's resource subscriptions", () => {
  it("subscribes upstream, hears the upstream's updates for what it watches, and unsubscribes upstream", async () => {
    const { lines, logger } = recordingLogger();
    const connection = new UpstreamConnection(settings, undefined, logger);
    const updated: string[] = [];
    let heard: () => void = () => undefined;
    try {
      await connection.watch(DOCUMENT, (uri) => {
        updated.push(uri);
        heard();
      });
      expect(received(lines, 'Subscribe', DOCUMENT)).toBe(1);
      const client = await connection.client(AbortSignal.timeout(30_000));
      const first = new Promise<void>((resolve) => (heard = resolve));
      await client.callTool({ name: 'toggle-subscriber-updates', arguments: {} });
      await first;
      expect(updated[0]).toBe(DOCUMENT);

      await connection.unwatch(DOCUMENT);
      expect(received(lines, 'Unsubscribe', DOCUMENT)).toBe(1);
      // Off again.
      await client.callTool({ name: 'toggle-subscriber-updates', arguments: {} });
    } finally {
      await connection.close();
    }
  });

  it('subscribes upstream once for every server watching a URI, and unsubscribes when the last one stops', async () => {
    const { lines, logger } = recordingLogger();
    const upstream = new McpUpstream(settings, undefined, logger);
    const first = async () => undefined;
    const second = async () => undefined;
    await upstream.watch(DOCUMENT, first);
    await upstream.watch(DOCUMENT, second);
    expect(received(lines, 'Subscribe', DOCUMENT)).toBe(1);
    await upstream.unwatch(DOCUMENT, first);
    expect(received(lines, 'Unsubscribe', DOCUMENT)).toBe(0);
    await upstream.unwatch(DOCUMENT, second);
    expect(received(lines, 'Unsubscribe', DOCUMENT)).toBe(1);
    // A URI the library does not serve is not its to watch.
    await upstream.watch('demo://resource/static/document/elsewhere.md', first);
    expect(lines.filter((line) => line.includes('elsewhere.md'))).toEqual([]);
  });
});
