import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One HTTP exchange with exactly these headers, for what SDK clients never send. */
export function rawRequest(
  origin: string,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string; /** Another loopback source address, such as 127.0.0.2. */ localAddress?: string } = {},
): Promise<RawResponse> {
  const url = new URL(path, origin);
  return new Promise((done, fail) => {
    const options = { method: init.method ?? 'POST', headers: init.headers, setHost: !hasHost(init.headers), ...(init.localAddress && { localAddress: init.localAddress }) };
    const req = request(url, options, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', fail);
    req.end(init.body);
  });
}

function hasHost(headers: Record<string, string> | undefined): boolean {
  return Object.keys(headers ?? {}).some((name) => name.toLowerCase() === 'host');
}

/**
 * Writes raw bytes on a fresh connection and resolves with the status line's code (0 if the
 * server closed without answering), for requests Node's client refuses to form.
 */
export function rawExchange(origin: string, bytes: string, timeoutMs = 10_000): Promise<{ status: number; text: string; body: string }> {
  const { hostname, port } = new URL(origin);
  return new Promise((done, fail) => {
    const socket = connect(Number(port), hostname);
    let text = '';
    const timer = setTimeout(() => {
      socket.destroy();
      fail(new Error(`no answer within ${timeoutMs} ms to ${JSON.stringify(bytes.slice(0, 80))}`));
    }, timeoutMs);
    socket.on('data', (chunk) => (text += chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      done({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), text, body: bodyOf(text) });
    });
    socket.end(bytes);
  });
}

/** Resident memory of a process, in MiB (Linux). */
export function rssMiB(pid: number): number {
  const kib = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
  return kib / 1024;
}

export const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** A 2025-era tools/call body, as a client would send it. */
export function toolsCall(name: string, args: Record<string, unknown> = {}, id = 1): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
}

/** The body of a raw HTTP/1.1 response, chunked transfer coding removed. */
function bodyOf(text: string): string {
  const split = text.indexOf('\r\n\r\n');
  if (split === -1) return '';
  const head = text.slice(0, split);
  let rest = text.slice(split + 4);
  if (!/^transfer-encoding:\s*chunked/im.test(head)) return rest;
  let body = '';
  for (;;) {
    const lineEnd = rest.indexOf('\r\n');
    const size = parseInt(rest.slice(0, lineEnd), 16);
    if (lineEnd === -1 || !(size > 0)) return body;
    body += rest.slice(lineEnd + 2, lineEnd + 2 + size);
    rest = rest.slice(lineEnd + 2 + size + 2);
  }
}
