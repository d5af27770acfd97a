import 'reflect-metadata';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { codeMode } from '@toolsets/code-mode';
import { buildServer, type ClassType, type ServerDefinition } from '@toolsets/core';
import { connectToolset, type ToolsetClient } from '@toolsets/testing';
import { generateToolset } from '../../src/openapi/generate-toolset';
import { loadGeneratedSources } from '../../src/openapi/load-generated';

/** An API whose document lists no `required` property anywhere, as some large public documents do: every field of every answer is optional there. */
const trackerDocument = {
  openapi: '3.0.3',
  info: { title: 'Tracker', version: '1.0.0' },
  servers: [{ url: 'http://localhost:9/api' }],
  paths: {
    '/issues/{number}': {
      get: {
        operationId: 'getIssue',
        summary: 'Get an issue.',
        parameters: [{ name: 'number', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: {
          '200': {
            description: 'The issue.',
            content: {
              'application/json': {
                schema: { type: 'object', properties: { number: { type: 'integer' }, title: { type: 'string' }, user: { type: 'object', properties: { login: { type: 'string' } } } } },
              },
            },
          },
        },
      },
    },
  },
};

/** Issue 1 as the API sends it; issue 2 without its user, which the document allows. */
const ISSUES: Record<string, object> = { '1': { number: 1, title: 'Crash on save', user: { login: 'ada' } }, '2': { number: 2, title: 'Slow start' } };

describe('code mode over an API whose document declares no required field', () => {
  let upstream: Server;
  let server: ServerDefinition;
  let client: ToolsetClient;
  const execute = async (program: string) => (await client.call('execute', { program })).structuredContent as Record<string, unknown>;

  beforeAll(async () => {
    upstream = createServer((req, res) => {
      const issue = ISSUES[/^\/api\/issues\/(\d+)$/.exec(req.url ?? '')?.[1] ?? ''];
      res.writeHead(issue ? 200 : 404, { 'content-type': 'application/json' }).end(JSON.stringify(issue ?? { message: 'Not found' }));
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    process.env['TRACKER_BASE_URL'] = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/api`;
    const generated = await generateToolset('tracker', trackerDocument);
    const exported = loadGeneratedSources(generated.files) as Record<string, ClassType>;
    const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
    server = buildServer({ name: 'tracker', version: '1', toolsets: generated.toolsets.map((toolset) => exported[toolset.className]!), logger: quiet, codeMode: codeMode() });
    client = await connectToolset(server, { era: 'modern', selection: { mode: 'code', readonly: false } });
  });
  afterAll(async () => {
    await client?.close();
    delete process.env['TRACKER_BASE_URL'];
    await server?.codeMode?.close();
    await new Promise((done) => upstream.close(done));
  });

  it('runs a program that reads the fields the API sends as what they are, without ?. or !', async () => {
    const program = `
const issue = await api.tracker.get_issue({ number: 1 });
if ('error' in issue) throw new Error(issue.detail);
const next: number = issue.data.number + 1;
return { next, title: issue.data.title.toUpperCase(), by: issue.data.user.login };`;
    expect(await execute(program)).toMatchObject({ value: { next: 2, title: 'CRASH ON SAVE', by: 'ada' }, calls: 1 });
  });

  it('still refuses a real type error before anything runs: a misspelt field, a string used as a number, a wrong argument', async () => {
    const refused = async (line: string) => {
      const answer = await execute(`const issue = await api.tracker.get_issue({ number: 1 });\nif ('error' in issue) throw new Error(issue.detail);\n${line}`);
      expect(answer).toMatchObject({ error: 'type_error', detail: expect.stringMatching(/^The program does not type-check; nothing ran\./) });
      return String(answer['detail']);
    };
    expect(await refused('return issue.data.numbr;')).toContain("Property 'numbr' does not exist");
    expect(await refused('const half: number = issue.data.title / 2;\nreturn half;')).toContain('arithmetic operation');
    expect(await refused("return api.tracker.get_issue({ number: 'one' });")).toContain("'string' is not assignable to type 'number'");
  });

  it('reads a field the API left out as undefined, and the error names the rule and the fix', async () => {
    const answer = await execute(`
const issue = await api.tracker.get_issue({ number: 2 });
if ('error' in issue) throw new Error(issue.detail);
return issue.data.user.login;`);
    expect(answer).toMatchObject({ error: 'thrown', calls: 1 });
    expect(answer['detail']).toMatch(/^The program threw TypeError: .*undefined.*Code mode declares every field of a tool's result as present; .*read such a field with \?\. or check it with 'in' first\.$/);
    // Written with ?., the same read runs.
    expect(await execute("const issue = await api.tracker.get_issue({ number: 2 });\nif ('error' in issue) throw new Error(issue.detail);\nreturn issue.data.user?.login ?? 'nobody';")).toMatchObject({ value: 'nobody' });
  });
});
