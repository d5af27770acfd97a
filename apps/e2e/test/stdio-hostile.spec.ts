import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { waitUntil } from '@toolsets/testing';
import { appMain, workspaceRoot } from './support/server-process';

/** The hello app over stdio, driven line by line, the way a broken or hostile client would. */
class StdioSession {
  readonly child: ChildProcessWithoutNullStreams;
  readonly lines: string[] = [];
  stderr = '';
  #partial = '';

  constructor() {
    this.child = spawn(process.execPath, [appMain('hello-server'), '--stdio'], { cwd: workspaceRoot, env: { PATH: process.env['PATH'] ?? '' } });
    this.child.stdout.on('data', (chunk: Buffer) => {
      const parts = (this.#partial + chunk.toString('utf8')).split('\n');
      this.#partial = parts.pop()!;
      this.lines.push(...parts);
    });
    this.child.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk));
  }

  send(text: string): Promise<void> {
    return new Promise((done) => (this.child.stdin.write(text) ? done() : this.child.stdin.once('drain', done)));
  }

  /** The next reply line, parsed; fails loudly if none comes within the deadline. */
  async reply(deadlineMs = 30_000): Promise<Record<string, unknown>> {
    await waitUntil(() => this.lines.length > 0, {
      deadlineMs,
      givenUp: () => this.child.exitCode !== null,
      failure: () => `no reply within ${deadlineMs} ms (exit ${this.child.exitCode}); stderr:\n${this.stderr.slice(-1000)}`,
    });
    return JSON.parse(this.lines.shift()!);
  }

  async close(): Promise<void> {
    this.child.stdin.end();
    if (this.child.exitCode === null) await new Promise((done) => this.child.once('exit', done));
  }
}

const initialize = (id: number) =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }) + '\n';
const hello = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'hello', arguments: { name: 'still here' } } }) + '\n';

describe('stdio under bad input keeps serving and answers every line', () => {
  let session: StdioSession;
  beforeEach(() => (session = new StdioSession()));
  afterEach(() => session.close());

  const expectStillServing = async (id: number) => {
    await session.send(hello(id));
    expect(await session.reply()).toMatchObject({ id, result: { structuredContent: { message: 'Hello, still here!' } } });
  };

  it('answers a line that is not JSON with -32700, and one that is not JSON-RPC with -32600', async () => {
    await session.send(initialize(1));
    expect(await session.reply()).toMatchObject({ id: 1, result: { serverInfo: { name: 'hello' } } });
    await session.send('this is not json\n');
    expect(await session.reply()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    await session.send('{"id": 9, "hello": "world"}\n');
    expect(await session.reply()).toEqual({ jsonrpc: '2.0', id: 9, error: { code: -32600, message: 'Invalid Request: the line is JSON but not a JSON-RPC 2.0 message.' } });
    await expectStillServing(2);
  });

  it('discards a 12 MiB line as it streams in, answers -32600 saying the limit, and serves the next line', async () => {
    await session.send(initialize(1));
    await session.reply();
    const piece = 'x'.repeat(1024 * 1024);
    await session.send('{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"hello","arguments":{"name":"');
    for (let i = 0; i < 12; i++) await session.send(piece);
    await session.send('"}}}\n');
    expect(await session.reply()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'Request too large: this server accepts messages of at most 1048576 bytes (MAX_BODY_BYTES).' },
    });
    await expectStillServing(4);
  });

  it('refuses a __proto__ key and an initialize with bad params, each in one readable line', async () => {
    await session.send('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":5}}\n');
    expect(await session.reply()).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: {
        code: -32602,
        message:
          'Invalid params for initialize: params.protocolVersion: expected string, received number; params.capabilities: expected object, received undefined; params.clientInfo: expected object, received undefined.',
      },
    });
    await session.send(initialize(2));
    await session.reply();
    await session.send('{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"hello","arguments":{"__proto__":{"x":1}}}}\n');
    expect(await session.reply()).toMatchObject({ id: 5, error: { code: -32600 } });
    await expectStillServing(6);
  });
});
