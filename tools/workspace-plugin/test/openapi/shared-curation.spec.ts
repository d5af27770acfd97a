import 'reflect-metadata';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ClassType } from '@toolsets/core';
import { connectToolset } from '@toolsets/testing';
import { generateToolset } from '../../src/openapi/generate-toolset';
import type { OpenApiConfig } from '../../src/openapi/openapi-config';
import { loadGeneratedSources } from '../../src/openapi/load-generated';

/** Curation written once: the same arguments on many operations, as a mailing API has them. */
const query = (name: string, schema: object, required = false) => ({ name, in: 'query', required, schema });
const paging = () => [query('count', { type: 'integer', minimum: 1, maximum: 1000 }), query('exclude_fields', { type: 'string' })];
const ok = { '200': { description: 'OK', content: { 'application/json': { schema: { type: 'object', properties: { total: { type: 'integer' } } } } } } };
const document = () => ({
  openapi: '3.0.3',
  info: { title: 'Mail', version: '1.0.0' },
  servers: [{ url: 'https://mail.example.com' }],
  paths: {
    '/lists': { get: { operationId: 'getLists', tags: ['lists'], summary: 'List audiences.', parameters: [...paging(), query('sort_dir', { type: 'string', enum: ['ASC', 'DESC'] })], responses: ok } },
    '/lists/{list_id}/members': {
      get: {
        operationId: 'getListMembers',
        tags: ['lists'],
        summary: 'List members.',
        parameters: [{ name: 'list_id', in: 'path', required: true, schema: { type: 'string' } }, ...paging(), query('status', { type: 'string', enum: ['subscribed', 'pending'] })],
        responses: ok,
      },
    },
    '/campaigns': { get: { operationId: 'getCampaigns', tags: ['campaigns'], summary: 'List campaigns.', parameters: paging(), responses: ok } },
  },
});

const curation: OpenApiConfig = {
  arguments: { exclude_fields: { value: '_links' }, list_id: { name: 'audience_id' }, count: { default: 10, maximum: 50 } },
  tags: { campaigns: { arguments: { count: { default: 5 } } } },
  tools: { getListMembers: { arguments: { count: { omit: true } } } },
};

const generate = (config: OpenApiConfig) => generateToolset('mail', document(), config);

describe('argument entries written once for the library and for a tag', () => {
  let upstream: Server;
  const requests: string[] = [];
  beforeAll(async () => {
    upstream = createServer((request, response) => {
      requests.push(request.url ?? '');
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ total: 1 }));
    });
    await new Promise<void>((listening) => upstream.listen(0, '127.0.0.1', listening));
    process.env['MAIL_BASE_URL'] = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    delete process.env['MAIL_BASE_URL'];
    await new Promise((closed) => upstream.close(closed));
  });

  it("apply to every operation that has the argument, a tag's over the library's and a tool's own over both; omit sends nothing", async () => {
    const { MailToolset } = loadGeneratedSources((await generate(curation)).files) as { MailToolset: ClassType };
    const client = await connectToolset(MailToolset);
    const properties = async (tool: string) => {
      const listed = (await client.listTools()).find((entry) => entry.name === tool)!;
      return listed.inputSchema.properties as Record<string, Record<string, unknown>>;
    };
    expect(Object.keys(await properties('get_lists'))).toEqual(['count', 'sort_dir']);
    expect((await properties('get_lists'))['count']).toMatchObject({ default: 10, maximum: 50 });
    expect(Object.keys(await properties('get_list_members'))).toEqual(['audience_id', 'status']);
    expect((await properties('get_campaigns'))['count']).toMatchObject({ default: 5 });

    for (const [tool, args] of [
      ['get_lists', {}],
      ['get_list_members', { audience_id: 'a1' }],
      ['get_campaigns', {}],
    ] as const) {
      const answer = await client.call(tool, args);
      expect(answer.isError).toBeFalsy();
    }
    expect(requests).toEqual(['/lists?count=10&exclude_fields=_links', '/lists/a1/members?exclude_fields=_links', '/campaigns?count=5&exclude_fields=_links']);
    const refused = await client.call('get_list_members', { audience_id: 'a1', count: 5 });
    expect(refused.isError).toBe(true);
    await client.close();
  });

  it('stop the generator at an entry no included operation takes, a tag the document lacks, or omit on a required argument, naming the entry', async () => {
    await expect(generate({ arguments: { exclude_feilds: { value: '_links' } } })).rejects.toThrow(
      'openapi.config.json "arguments"."exclude_feilds": no included operation has an argument of this name (renamed or removed upstream?). The closest is "exclude_fields".',
    );
    await expect(generate({ tags: { campaign: { arguments: { count: { default: 5 } } } } })).rejects.toThrow('openapi.config.json "tags"."campaign": no operation of the document has this tag. The closest is "campaigns".');
    await expect(generate({ exclude: ['getCampaigns'], tags: { campaigns: { arguments: { count: { default: 5 } } } } })).rejects.toThrow('openapi.config.json "tags"."campaigns"."arguments"."count": no included operation has an argument of this name');
    await expect(generate({ arguments: { list_id: { omit: true } } })).rejects.toThrow(
      'openapi.config.json "arguments"."list_id"."omit" (applied to "getListMembers"): hides an argument the tool requires, so the call could not be made. Give "value" instead',
    );
    await expect(generate({ arguments: { count: { maximum: 5000 } } })).rejects.toThrow('openapi.config.json "arguments"."count"."maximum" (applied to "getLists")');
    await expect(generate({ argumnets: {} } as OpenApiConfig)).rejects.toThrow('openapi.config.json."argumnets" is not a setting: did you mean "arguments"?');
  });

  it("cut every answer that has all of a library's or tag's fields, a tag's list over the library's and a tool's own over both; the rest stay whole", async () => {
    const answer = (schema: object) => ({ '200': { description: 'OK', content: { 'application/json': { schema } } } });
    const listOf = (key: string) => ({ type: 'object', properties: { [key]: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' }, stats: { type: 'object', properties: { opens: { type: 'integer' } } } } } }, total_items: { type: 'integer' }, _links: { type: 'array', items: { type: 'object', properties: { rel: { type: 'string' } } } } } });
    const shaped = document();
    shaped.paths['/lists'].get.responses = answer(listOf('lists')) as never;
    shaped.paths['/lists/{list_id}/members'].get.responses = answer(listOf('members')) as never;
    shaped.paths['/campaigns'].get.responses = answer(listOf('campaigns')) as never;
    const generated = await generateToolset('mail', shaped, {
      fields: ['total_items'],
      tags: { lists: { fields: ['lists.id', 'lists.name', 'total_items'] } },
      tools: { getCampaigns: { fields: ['campaigns.name'] } },
    });
    const { MailToolset } = loadGeneratedSources(generated.files) as { MailToolset: ClassType };
    const client = await connectToolset(MailToolset);
    const dataFields = async (tool: string) => {
      const listed = (await client.listTools()).find((entry) => entry.name === tool)!;
      type Data = { properties: Record<string, { items?: { properties: object } }> };
      // The result arm (a generated tool can also answer a ToolError).
      const output = listed.outputSchema as { anyOf: { properties: Record<string, Data> }[] };
      const data = output.anyOf[0]!.properties['data']!;
      return Object.fromEntries(Object.entries(data.properties).map(([name, property]) => [name, property.items ? Object.keys(property.items.properties) : true]));
    };
    expect(await dataFields('get_lists')).toEqual({ lists: ['id', 'name'], total_items: true });
    expect(await dataFields('get_list_members')).toEqual({ total_items: true });
    expect(await dataFields('get_campaigns')).toEqual({ campaigns: ['name'] });
    await client.close();
    await expect(generateToolset('mail', shaped, { fields: ['total'] })).rejects.toThrow(`openapi.config.json "fields": no included operation's answer has all of these fields.`);
  });
});
