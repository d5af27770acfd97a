import { PassThrough } from 'node:stream';
import type { Logger } from '../../src/server/logging/logger';
import { LineStdioTransport } from '../../src/transport/stdio/stdio-line-transport';

const quiet: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** Whether `promise` has settled by the time the event loop has run everything already queued. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe("the stdio transport tells when the client ended the connection, and only then", () => {
  it('settles inputEnded when stdin ends, after the lines before the end were delivered, and closes', async () => {
    const input = new PassThrough();
    const transport = new LineStdioTransport(input, new PassThrough(), 1024, quiet);
    const seen: unknown[] = [];
    let closed = false;
    transport.onmessage = (message) => seen.push(message);
    transport.onclose = () => (closed = true);
    await transport.start();
    input.end('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    await transport.inputEnded;
    expect([seen, closed]).toEqual([[{ jsonrpc: '2.0', method: 'notifications/initialized' }], true]);
  });

  it('leaves inputEnded pending when this side closes the connection', async () => {
    const input = new PassThrough();
    const transport = new LineStdioTransport(input, new PassThrough(), 1024, quiet);
    await transport.start();
    await transport.close();
    input.end();
    expect(await settled(transport.inputEnded)).toBe(false);
  });
});
