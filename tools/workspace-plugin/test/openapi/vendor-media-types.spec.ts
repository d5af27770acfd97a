import 'reflect-metadata';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { codeMode } from '@toolsets/code-mode';
import { buildServer, type ClassType, type ServerDefinition } from '@toolsets/core';
import { connectToolset } from '@toolsets/testing';
import { generateToolset } from '../../src/openapi/generate-toolset';
import { loadGeneratedSources } from '../../src/openapi/load-generated';

const VIDEO = 'application/vnd.clips.video+json';
const DRAFT = 'application/vnd.clips.video-draft+json';
const PROBLEM = 'application/problem+json';

const videoSchema = { type: 'object', required: ['id', 'title', 'views'], properties: { id: { type: 'integer' }, title: { type: 'string' }, views: { type: 'integer' } } };
const problemSchema = { type: 'object', properties: { title: { type: 'string' }, status: { type: 'integer' } } };

/** An API whose answers and bodies are declared only under vendor media types, as some large public APIs declare them. */
const clipsDocument = {
  openapi: '3.0.3',
  info: { title: 'Clips', version: '1.0.0' },
  servers: [{ url: 'http://localhost:9/api' }],
  paths: {
    '/videos/{id}': {
      get: {
        operationId: 'getVideo',
        summary: 'Get a video.',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: { '200': { description: 'The video.', content: { [VIDEO]: { schema: videoSchema } } }, '404': { description: 'No such video.', content: { [PROBLEM]: { schema: problemSchema } } } },
      },
    },
    '/videos': {
      post: {
        operationId: 'createVideo',
        summary: 'Create a video.',
        requestBody: { required: true, content: { [DRAFT]: { schema: { type: 'object', required: ['title'], properties: { title: { type: 'string' } } } } } },
        responses: { '201': { description: 'Created.', content: { [VIDEO]: { schema: videoSchema } } } },
      },
    },
  },
};

/** What the upstream saw: each request's method, path, Accept and Content-Type. */
const seen: { method: string; url: string; accept: string; contentType: string }[] = [];

/** Answers only what is asked for, as a strict API does: 406 unless Accept names the vendor type, 415 unless a body is sent as the draft type. */
function strictUpstream(req: IncomingMessage, body: string, res: import('node:http').ServerResponse): void {
  const accept = String(req.headers.accept ?? '');
  const contentType = String(req.headers['content-type'] ?? '');
  seen.push({ method: req.method ?? '', url: req.url ?? '', accept, contentType });
  const answer = (status: number, type: string, value: unknown): void => void res.writeHead(status, { 'content-type': type }).end(JSON.stringify(value));
  if (!accept.split(',').some((part) => part.trim().split(';')[0] === VIDEO)) return answer(406, PROBLEM, { title: 'Not Acceptable', status: 406 });
  if (req.method === 'POST') {
    if (contentType !== DRAFT) return answer(415, PROBLEM, { title: 'Unsupported Media Type', status: 415 });
    return answer(201, VIDEO, { id: 3, title: (JSON.parse(body) as { title: string }).title, views: 0 });
  }
  const id = /^\/api\/videos\/(\d+)$/.exec(req.url ?? '')?.[1];
  if (id === '1') return answer(200, VIDEO, { id: 1, title: 'Launch', views: 120 });
  return answer(404, PROBLEM, { title: 'No such video', status: 404 });
}

describe('an API that declares its JSON only under vendor media types (application/vnd.…+json)', () => {
  let upstream: Server;
  let server: ServerDefinition;
  beforeAll(async () => {
    upstream = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk));
      req.on('end', () => strictUpstream(req, body, res));
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    process.env['CLIPS_BASE_URL'] = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/api`;
    const generated = await generateToolset('clips', clipsDocument);
    const exported = loadGeneratedSources(generated.files) as Record<string, ClassType>;
    server = buildServer({ name: 'clips', version: '1', toolsets: generated.toolsets.map((toolset) => exported[toolset.className]!), logger: { info: () => undefined, warn: () => undefined, error: () => undefined }, codeMode: codeMode() });
  });
  afterAll(async () => {
    delete process.env['CLIPS_BASE_URL'];
    await server?.codeMode?.close();
    await new Promise((done) => upstream.close(done));
  });
  beforeEach(() => (seen.length = 0));

  it('asks for what each operation declares and sends bodies as their declared type, through tools/call', async () => {
    const client = await connectToolset(server, { era: 'modern' });
    try {
      expect((await client.call('get_video', { id: 1 })).structuredContent).toMatchObject({ data: { id: 1, title: 'Launch', views: 120 } });
      expect((await client.call('create_video', { title: 'Teaser' })).structuredContent).toMatchObject({ data: { id: 3, title: 'Teaser', views: 0 } });
      // A problem+json error is read as JSON too, and becomes the declared error.
      const missing = await client.call('get_video', { id: 2 });
      expect(missing.structuredContent).toMatchObject({ error: 'http_404' });
    } finally {
      await client.close();
    }
    expect(seen.map(({ method, accept, contentType }) => ({ method, accept, contentType }))).toEqual([
      { method: 'GET', accept: `${VIDEO}, ${PROBLEM}`, contentType: '' },
      { method: 'POST', accept: VIDEO, contentType: DRAFT },
      { method: 'GET', accept: `${VIDEO}, ${PROBLEM}`, contentType: '' },
    ]);
  });

  it('runs a program that reads the answers as typed values, through code mode', async () => {
    const client = await connectToolset(server, { era: 'modern', selection: { mode: 'code', readonly: false } });
    try {
      const program = `
const created = await api.clips.create_video({ title: 'Teaser' });
if ('error' in created) throw new Error(created.detail);
const launch = await api.clips.get_video({ id: 1 });
if ('error' in launch) throw new Error(launch.detail);
const views: number = (launch.data?.views ?? 0) + (created.data?.views ?? 0);
return { titles: [launch.data?.title, created.data?.title], views };`;
      const ran = await client.call('execute', { program });
      expect(ran.structuredContent).toMatchObject({ value: { titles: ['Launch', 'Teaser'], views: 120 }, calls: 2 });
    } finally {
      await client.close();
    }
  });
});
