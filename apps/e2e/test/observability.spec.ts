import { createServer, type Server } from 'node:http';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { waitUntil } from '@toolsets/testing';
import { httpClient, stdioClient } from './support/clients';
import { appMain, startServerCommand, workspaceRoot } from './support/server-process';

const doc = readFileSync(join(workspaceRoot, 'docs/observability.md'), 'utf-8');

/** The fenced block of `lang` that follows `marker` (or the first one of `lang`). */
function blockOf(lang: string, marker = ''): string {
  const from = marker ? doc.indexOf(marker) : 0;
  if (from < 0) throw new Error(`docs/observability.md has no ${marker}`);
  const start = doc.indexOf(`\`\`\`${lang}\n`, from);
  return doc.slice(start + lang.length + 4, doc.indexOf('\n```', start));
}

interface OtlpSpan {
  name: string;
  kind: number;
  traceId: string;
  parentSpanId?: string;
  attributes: Record<string, string>;
}

/** An OTLP/HTTP receiver on loopback: what Jaeger's port 4318 does, keeping the spans it is sent (JSON). */
async function startReceiver(): Promise<{ url: string; spans: OtlpSpan[]; server: Server }> {
  const spans: OtlpSpan[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const body = JSON.parse((req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString('utf8')) as {
        resourceSpans: { scopeSpans: { spans: { name: string; kind: number; traceId: string; parentSpanId?: string; attributes: { key: string; value: Record<string, unknown> }[] }[] }[] }[];
      };
      for (const resource of body.resourceSpans) {
        for (const scope of resource.scopeSpans) {
          for (const span of scope.spans) {
            const attributes = Object.fromEntries(span.attributes.map((a) => [a.key, String(Object.values(a.value)[0])]));
            spans.push({ name: span.name, kind: span.kind, traceId: span.traceId, parentSpanId: span.parentSpanId, attributes });
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return { url: `http://127.0.0.1:${address.port}`, spans, server };
}

/** The docs' span table: name, kind and the attributes each span must carry. */
function documentedSpans(): { name: string; kind: string; attributes: Record<string, string> }[] {
  const [, ...rows] = blockOf('text', '<!-- observability-spans -->').split('\n');
  return rows.map((row) => {
    const [, name, kind, attributes] = /^(.+?)\s{2,}(SERVER|CLIENT)\s+(.*)$/.exec(row)!;
    return { name: name!.trim(), kind: kind!, attributes: Object.fromEntries(attributes!.split(' ').map((pair) => pair.split('=') as [string, string])) };
  });
}

describe('the tracing example in docs/observability.md', () => {
  const scratch = join(workspaceRoot, 'tmp', 'observability-e2e');
  const tracing = join(scratch, 'tracing.cjs');
  beforeAll(() => {
    mkdirSync(scratch, { recursive: true });
    writeFileSync(tracing, blockOf('js'));
  });
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('sends the spans the docs list, with their attributes, to an OTLP endpoint', async () => {
    const receiver = await startReceiver();
    // PORT=0 (startServerCommand's): the server takes a free port and says which.
    const server = await startServerCommand([process.execPath, '--require', tracing, appMain('hello-server')], {
      DRAIN_DELAY_MS: '0',
      OTEL_SERVICE_NAME: 'hello-server',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      // Export every 100 ms instead of every 5 s, so the test need not wait.
      OTEL_BSP_SCHEDULE_DELAY: '100',
    });
    try {
      const client = await httpClient('modern', `${server.origin}/mcp`);
      await client.callTool({ name: 'hello', arguments: { name: 'Ada' } });
      await client.callTool({ name: 'greet_team', arguments: { names: ['Ada', 'ada'] } });
      await client.close();

      const expected = documentedSpans();
      expect(expected.map((span) => span.name)).toEqual(['server/discover', 'tools/call hello', 'tools/call greet_team']);
      await waitUntil(() => expected.every((e) => receiver.spans.some((s) => s.name === e.name)), {
        deadlineMs: 30_000,
        failure: () => `the collector received ${JSON.stringify(receiver.spans.map((s) => s.name))}, not every documented span`,
      });
      for (const span of expected) {
        const received = receiver.spans.find((s) => s.name === span.name);
        expect({ name: span.name, attributes: received?.attributes }).toEqual({ name: span.name, attributes: expect.objectContaining(span.attributes) });
        expect(received!.kind).toBe(2); // SPAN_KIND_SERVER
      }
      expect(JSON.stringify(receiver.spans)).not.toContain('Ada');
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
      await new Promise((resolve) => receiver.server.close(resolve));
    }
  }, 60_000);

  it('traces a 2025-era client over stdio as network.transport pipe, and keeps stdout clean for the protocol', async () => {
    const receiver = await startReceiver();
    try {
      const client = await stdioClient('legacy', ['--require', tracing, appMain('hello-server'), '--stdio'], {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_BSP_SCHEDULE_DELAY: '100',
      });
      expect((await client.callTool({ name: 'hello', arguments: { name: 'Ada' } }))['structuredContent']).toEqual({ message: 'Hello, Ada!' });
      await waitUntil(() => receiver.spans.some((s) => s.name === 'tools/call hello'), {
        deadlineMs: 30_000,
        failure: () => `no 'tools/call hello' span reached the collector; it has ${JSON.stringify(receiver.spans.map((s) => s.name))}`,
      });
      await client.close();
      expect(receiver.spans.find((s) => s.name === 'initialize')?.attributes).toMatchObject({ 'mcp.method.name': 'initialize', 'network.transport': 'pipe' });
      expect(receiver.spans.find((s) => s.name === 'tools/call hello')?.attributes).toMatchObject({ 'network.transport': 'pipe', 'mcp.protocol.version': expect.stringMatching(/^2025-/) });
    } finally {
      await new Promise((resolve) => receiver.server.close(resolve));
    }
  }, 60_000);
});
