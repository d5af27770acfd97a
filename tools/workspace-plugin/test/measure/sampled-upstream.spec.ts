import 'reflect-metadata';
import type { ClassType } from '@toolsets/core';
import { connectToolset } from '@toolsets/testing';
import { startSampledUpstream } from '../../src/measure/sampled-upstream';
import { generateToolset } from '../../src/openapi/generate-toolset';
import { loadGeneratedSources } from '../../src/openapi/load-generated';

/** A commit whose parents are commits: the sampler cuts the recursion, leaving an empty item behind. */
const document = {
  openapi: '3.0.3',
  info: { title: 'Code', version: '1' },
  servers: [{ url: 'https://code.example.com' }],
  paths: {
    '/commits/{id}': {
      get: {
        operationId: 'getCommit',
        summary: 'One commit.',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': { description: 'The commit.', content: { 'application/json': { schema: { $ref: '#/components/schemas/commit' } } } } },
      },
    },
  },
  components: {
    schemas: {
      commit: { type: 'object', properties: { hash: { type: 'string' }, message: { type: 'string' }, parents: { type: 'array', items: { $ref: '#/components/schemas/commit' } } }, required: ['hash'] },
    },
  },
};

describe('the sample upstream openapi-measure calls', () => {
  it("answers a recursive schema without the empty items the sampler leaves where it cut, so the generated tool's strict check passes", async () => {
    const upstream = await startSampledUpstream(document);
    process.env['CODE_BASE_URL'] = upstream.url;
    try {
      const answer = (await (await fetch(`${upstream.url}/commits/abc`)).json()) as { hash: string; parents: unknown[] };
      expect(typeof answer.hash).toBe('string');
      expect(answer.parents.every((parent) => parent !== null && typeof parent === 'object')).toBe(true);
      const { CodeToolset } = loadGeneratedSources((await generateToolset('code', document, {})).files) as { CodeToolset: ClassType };
      const client = await connectToolset(CodeToolset);
      const called = await client.call('get_commit', { id: 'abc' });
      expect(called.isError).toBeFalsy();
      expect((called.structuredContent as { data: unknown }).data).toEqual(answer);
      await client.close();
    } finally {
      delete process.env['CODE_BASE_URL'];
      await upstream.close();
    }
  });
});
