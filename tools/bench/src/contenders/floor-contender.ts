import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serveHttp } from '@toolsets/core';
import { toolsetsHelloServer } from './hello-contenders';

/** One recorded answer: its status, headers and body, with the request id cut out. */
interface Recorded {
  status: number;
  headers: Record<string, string>;
  before: string;
  after: string;
}

const MODERN_META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'floor', version: '0' }, 'io.modelcontextprotocol/clientCapabilities': {} };
const ID = 917_364_251;

/**
 * The physical floor of this stack: a plain `node:http` server that answers the bench's calls with
 * the bytes toolsets sends, recorded once at start (server/discover and tools/call for a 2026-07-28
 * client; initialize and tools/call for a 2025-era one; 202 for notifications), with the request's
 * id put in. It reads and parses each body as a server must, and does nothing else: no envelope
 * checks, no validation, no tool.
 */
export async function startFloor(): Promise<Server> {
  const answers = await recordAnswers();
  const http = createServer((req, res) => {
    // A stateless server has no stream to open (GET) or session to end (DELETE), as the SDK answers.
    if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST' }).end();
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id?: string | number; method: string };
      if (message.id === undefined) return void res.writeHead(202).end();
      const answer = answers.get(`${eraOf(req)} ${message.method}`);
      if (!answer) return void res.writeHead(404).end();
      const body = `${answer.before}${JSON.stringify(message.id)}${answer.after}`;
      res.writeHead(answer.status, { ...answer.headers, ...(answer.headers['content-type'] === 'application/json' && { 'content-length': String(Buffer.byteLength(body)) }) });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return http;
}

function eraOf(req: IncomingMessage): 'modern' | 'legacy' {
  return req.headers['mcp-protocol-version'] === '2026-07-28' ? 'modern' : 'legacy';
}

/** The toolsets server's own answers to what the bench's clients send, recorded once. */
async function recordAnswers(): Promise<Map<string, Recorded>> {
  const handle = await serveHttp(toolsetsHelloServer(), { port: 0, logger: { info: () => undefined, warn: () => undefined, error: console.error } });
  const url = `${handle.origin}/mcp`;
  const answers = new Map<string, Recorded>();
  const record = async (era: 'modern' | 'legacy', method: string, params: Record<string, unknown>) => {
    const modern = era === 'modern';
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': modern ? '2026-07-28' : '2025-11-25',
        ...(modern && { 'mcp-method': method }),
        ...(modern && method === 'tools/call' && { 'mcp-name': 'hello' }),
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: ID, method, params: modern ? { ...params, _meta: MODERN_META } : params }),
    });
    const body = await response.text();
    const [before, after] = body.split(String(ID));
    const headers = Object.fromEntries([...response.headers].filter(([name]) => ['content-type', 'cache-control', 'etag'].includes(name)));
    answers.set(`${era} ${method}`, { status: response.status, headers, before: before!, after: after! });
  };
  try {
    await record('modern', 'server/discover', {});
    await record('modern', 'tools/call', { name: 'hello', arguments: { name: 'load' } });
    await record('legacy', 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'floor', version: '0' } });
    await record('legacy', 'tools/call', { name: 'hello', arguments: { name: 'load' } });
  } finally {
    await handle.close();
  }
  return answers;
}

/** The port the floor listens on. */
export function portOf(http: Server): number {
  return (http.address() as AddressInfo).port;
}
