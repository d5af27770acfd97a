import 'reflect-metadata';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { buildServer, serveHttp, servingOptionsFromEnvironment, type HttpServerHandle, type ServerCardOptions } from '../../src';
import { AdminToolset, NotesToolset } from '../support/grouped-toolsets';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const CARD_TYPE = 'application/mcp-server-card+json';
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
// The published schema, kept as test data (see ../support/schemas/README.md).
ajv.addSchema(JSON.parse(readFileSync(join(__dirname, '../support/schemas/server-card.schema.json'), 'utf8')), 'server-card');
const validCard = ajv.getSchema('server-card#/$defs/ServerCard')!;

const notes = (card?: ServerCardOptions | false, name = 'notes') =>
  buildServer({ name, version: '2.3.0', instructions: 'Notes for a team. Add and list them.', toolsets: [NotesToolset, AdminToolset], ...(card !== undefined && { card }) });

interface Card {
  name: string;
  version: string;
  description: string;
  title?: string;
  remotes: { type: string; url: string; headers?: { name: string; isSecret?: boolean; value?: string }[]; supportedProtocolVersions: string[] }[];
  _meta: Record<string, { extensions: string[]; tools: number; groups: { name: string; description: string; tools: number }[] }>;
}

describe('MCP Server Cards (SEP-2127 draft)', () => {
  const handles: HttpServerHandle[] = [];
  afterAll(() => Promise.all(handles.map((handle) => handle.close())));
  const serve = async (...args: Parameters<typeof serveHttp>) => {
    const handle = await serveHttp(...args);
    handles.push(handle);
    return handle;
  };

  it('serves a card that validates against the published schema and agrees with what a connected client sees', async () => {
    const { origin } = await serve(notes(), { port: 0 });
    const response = await fetch(`${origin}/mcp/server-card`, { headers: { accept: CARD_TYPE } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(CARD_TYPE);
    const card = (await response.json()) as Card;
    expect(validCard(card)).toBe(true);
    expect(validCard.errors ?? []).toEqual([]);

    const client = new Client({ name: 'card-reader', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(card.remotes[0]!.url)));
    try {
      expect(client.getServerVersion()).toMatchObject({ name: 'notes', version: card.version });
      expect(card.remotes[0]!.supportedProtocolVersions).toContain(client.getNegotiatedProtocolVersion());
      const extensions = Object.keys(client.getServerCapabilities()?.extensions ?? {});
      expect(card._meta['dev.toolsets/server']!.extensions.sort()).toEqual(extensions.sort());
      const groups = (await client.request({ method: 'groups/list', params: {} } as never, { '~standard': { version: 1, vendor: 't', validate: (value: unknown) => ({ value }) } } as never)) as { groups: { name: string; description: string }[] };
      expect(card._meta['dev.toolsets/server']!.groups.map(({ name, description }) => ({ name, description }))).toEqual(groups.groups.map(({ name, description }) => ({ name, description })));
      expect(card._meta['dev.toolsets/server']!.tools).toBe((await client.listTools()).tools.length);
    } finally {
      await client.close();
    }
    expect(card).toMatchObject({ name: 'local/notes', version: '2.3.0', description: 'Notes for a team.' });
    expect(card._meta['dev.toolsets/server']!.groups).toEqual([
      { name: 'notes', description: 'Keep and find short notes. 2 tools.', tools: 2 },
      { name: 'admin', description: 'Administer the note store. 1 tool.', tools: 1 },
    ]);
    // A credential header is described, never given a value.
    expect(card.remotes[0]!.headers).toEqual([{ name: 'x-notes-key', description: 'A credential the notes tools read.', isSecret: true }]);
  });

  it('is public and cacheable: CORS for any origin, an ETag that If-None-Match turns into 304, HEAD and OPTIONS', async () => {
    const { origin } = await serve(notes(), { port: 0 });
    const first = await fetch(`${origin}/mcp/server-card`);
    expect(first.headers.get('access-control-allow-origin')).toBe('*');
    expect(first.headers.get('access-control-expose-headers')).toBe('ETag');
    expect(first.headers.get('cache-control')).toBe('public, max-age=3600');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await fetch(`${origin}/mcp/server-card`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect((await fetch(`${origin}/mcp/server-card`, { headers: { 'if-none-match': '"other"' } })).status).toBe(200);
    const head = await fetch(`${origin}/mcp/server-card`, { method: 'HEAD' });
    expect([head.status, head.headers.get('etag'), await head.text()]).toEqual([200, etag, '']);
    const preflight = await fetch(`${origin}/mcp/server-card`, { method: 'OPTIONS' });
    expect([preflight.status, preflight.headers.get('access-control-allow-methods')]).toEqual([204, 'GET, HEAD, OPTIONS']);
    const post = await fetch(`${origin}/mcp/server-card`, { method: 'POST', body: '{}' });
    expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET, HEAD, OPTIONS']);
  });

  it('serves the single server’s card at /.well-known/mcp/server-card.json too (where xmcp serves it), byte for byte', async () => {
    const { origin } = await serve(notes(), { port: 0 });
    const [reserved, wellKnown] = await Promise.all([fetch(`${origin}/mcp/server-card`), fetch(`${origin}/.well-known/mcp/server-card.json`)]);
    expect(await wellKnown.text()).toBe(await reserved.text());
    expect(wellKnown.headers.get('etag')).toBe(reserved.headers.get('etag'));
  });

  it('names the server from MCP_NAMESPACE or PUBLIC_URL, and takes the card options it is given', async () => {
    const env = servingOptionsFromEnvironment({ MCP_NAMESPACE: 'io.github.acme', PUBLIC_URL: 'https://mcp.example.com' });
    const named = await serve(notes(), { ...env, port: 0 });
    const card = (await (await fetch(`${named.origin}/mcp/server-card`)).json()) as Card;
    expect([card.name, card.remotes[0]!.url]).toEqual(['io.github.acme/notes', 'https://mcp.example.com/mcp']);

    const byHost = await serve(notes(), { publicUrl: 'https://mcp.example.com/', port: 0 });
    expect(((await (await fetch(`${byHost.origin}/mcp/server-card`)).json()) as Card).name).toBe('com.example.mcp/notes');

    const options: ServerCardOptions = { name: 'com.example/team-notes', title: 'Team notes', description: 'Shared notes.', websiteUrl: 'https://example.com/notes', repository: { url: 'https://github.com/example/notes', source: 'github', subfolder: 'apps/notes' } };
    const own = await serve(notes(options), { port: 0 });
    const ownCard = (await (await fetch(`${own.origin}/mcp/server-card`)).json()) as Card;
    expect(ownCard).toMatchObject(options);
    expect(validCard(ownCard)).toBe(true);
    expect(() => servingOptionsFromEnvironment({ MCP_NAMESPACE: 'acme/notes' })).toThrow('MCP_NAMESPACE must be a reverse-DNS namespace of letters, digits, dots and hyphens (such as io.github.acme), got "acme/notes".');
  });

  it('lists every server’s card in an AI Catalog when several are mounted, and leaves out a server whose card is off', async () => {
    const { origin } = await serve([notes(undefined, 'team'), notes(false, 'private')], { port: 0 });
    const catalog = await fetch(`${origin}/.well-known/ai-catalog.json`);
    expect(catalog.headers.get('content-type')).toBe('application/ai-catalog+json');
    expect(await catalog.json()).toEqual({ specVersion: '1.0', entries: [{ identifier: 'urn:air:127.0.0.1:mcp:team', type: CARD_TYPE, url: `${origin}/team/mcp/server-card` }] });
    expect((await fetch(`${origin}/team/mcp/server-card`)).status).toBe(200);
    expect((await fetch(`${origin}/private/mcp/server-card`)).status).toBe(404);
    // With several servers, no one of them is the domain's card.
    expect((await fetch(`${origin}/.well-known/mcp/server-card.json`)).status).toBe(404);
  });

  it('refuses card options the schema would refuse, when the server is built, saying what to give', () => {
    expect(() => notes({ name: 'team notes' })).toThrow(
      "buildServer 'notes': card.name is \"team notes\". Fix: give a reverse-DNS name with one slash, such as 'io.github.acme/weather' (letters, digits, dots and hyphens before the slash; also underscores after it).",
    );
    expect(() => notes({ description: 'x'.repeat(101) })).toThrow("buildServer 'notes': card.description is 101 characters. Fix: give 1 to 100 characters: the registry and the card schema take no more.");
    expect(() => notes({ websiteUrl: 'example.com' })).toThrow("buildServer 'notes': card.websiteUrl is \"example.com\". Fix: give an absolute URL, such as https://example.com/weather.");
  });

  it('cuts a long default description to the schema’s 100 characters', async () => {
    const long = buildServer({ name: 'long', version: '1', instructions: `${'Word '.repeat(40)}end.`, toolsets: [NotesToolset] });
    const { origin } = await serve(long, { port: 0 });
    const card = (await (await fetch(`${origin}/mcp/server-card`)).json()) as Card;
    expect(card.description).toHaveLength(100);
    expect(card.description.endsWith('…')).toBe(true);
    expect(validCard(card)).toBe(true);
  });
});
