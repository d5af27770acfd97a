import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { codeMode } from '@toolsets/code-mode';
import { buildServer, type ClassType } from '@toolsets/core';
import { connectToolset } from '@toolsets/testing';
import { generateToolset } from '../../src/openapi/generate-toolset';
import { loadGeneratedSources } from '../../src/openapi/load-generated';

const petstore = () => JSON.parse(readFileSync(join(require.resolve('@readme/oas-examples/package.json'), '..', '3.0/json/petstore.json'), 'utf-8'));

const PETS: Record<string, { id: number; name: string; photoUrls: string[]; status: string }> = {
  '7': { id: 7, name: 'Rex', photoUrls: [], status: 'available' },
  '8': { id: 8, name: 'Tom', photoUrls: [], status: 'available' },
};

/** The program a model writes after describing the two tools: several calls, one small answer. */
const PROGRAM = `
const found = await api.pet.find_pets_by_status({ status: ['available'] });
if ('error' in found) throw new Error(found.detail);
const ids = (found.data ?? []).map((pet) => pet.id ?? 0);
const pets = await Promise.all(ids.map((petId) => api.pet.get_pet_by_id({ petId })));
const names: string[] = [];
const missing: string[] = [];
pets.forEach((pet, i) => ('error' in pet ? missing.push(pet.error + ' #' + ids[i]) : names.push(pet.data?.name ?? '?')));
console.log('looked up', ids.length);
return { names, missing };`;

describe('code mode over a generated toolset and its upstream on loopback', () => {
  let upstream: Server;
  const keys: string[] = [];
  beforeAll(async () => {
    upstream = createServer((req, res) => {
      keys.push(String(req.headers['api_key'] ?? ''));
      const json = (status: number, value: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      if (req.url?.startsWith('/v2/pet/findByStatus')) return json(200, [PETS['7'], PETS['8'], { id: 9, name: 'Gone', photoUrls: [], status: 'available' }]);
      const pet = /^\/v2\/pet\/(\d+)$/.exec(req.url ?? '')?.[1];
      if (pet && PETS[pet]) return json(200, PETS[pet]);
      json(404, { code: 1, type: 'error', message: 'Pet not found' });
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    process.env['PETSTORE_BASE_URL'] = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v2`;
  });
  afterAll(async () => {
    delete process.env['PETSTORE_BASE_URL'];
    await new Promise((done) => upstream.close(done));
  });

  it('runs a multi-step program in both eras: typed calls through the generated client, the 404 as a ToolError value, the caller key sent upstream and never shown', async () => {
    const generated = await generateToolset('petstore', petstore(), { credentialHeader: 'x-petstore-key', groupBy: 'tag' });
    const exported = loadGeneratedSources(generated.files) as Record<string, ClassType>;
    const toolsets = generated.toolsets.map((toolset) => exported[toolset.className]!);
    const server = buildServer({ name: 'petstore', version: '1', toolsets, logger: { info: () => undefined, warn: () => undefined, error: () => undefined }, codeMode: codeMode() });
    try {
      for (const era of ['modern', 'legacy'] as const) {
        const client = await connectToolset(server, { era, headers: { 'x-petstore-key': 'sk-pets' }, selection: { mode: 'code', readonly: false } });
        try {
          // A search program finds generated tools by their operation, as docs/code-mode.md says it can.
          const searched = await client.call('search', { program: "return catalog.filter((e) => e.method === 'GET' && e.path?.startsWith('/pet/')).map((e) => `${e.name} ${e.method} ${e.path}`);" });
          expect((searched.structuredContent as { value: string[] }).value).toEqual(['find_pets_by_status GET /pet/findByStatus', 'find_pets_by_tags GET /pet/findByTags', 'get_pet_by_id GET /pet/{petId}']);
          const described = await client.call('describe', { names: ['find_pets_by_status', 'get_pet_by_id'] });
          expect(String((described.structuredContent as { declarations: string }).declarations)).toMatch(/namespace api\.pet \{[\s\S]*function get_pet_by_id\(args: GetPetByIdArgs\): Promise<GetPetByIdResult>;/);
          const ran = await client.call('execute', { program: PROGRAM });
          expect(ran.structuredContent).toEqual({ message: 'The program ran, making 4 call(s).', value: { names: ['Rex', 'Tom'], missing: ['http_404 #9'] }, logs: ['looked up 3'], calls: 4 });
          expect(JSON.stringify(ran)).not.toContain('sk-pets');
        } finally {
          await client.close();
        }
      }
      expect(new Set(keys)).toEqual(new Set(['sk-pets']));
      expect(keys).toHaveLength(8);
    } finally {
      await server.codeMode!.close();
    }
  });
});
