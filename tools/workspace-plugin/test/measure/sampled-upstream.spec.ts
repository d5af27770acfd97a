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

  it('answers as the document says where the sampler alone would not: items that must differ, a lazy pattern, an object cut short at a recursion, a success without a body; the same bytes every time', async () => {
    const hash = { type: 'string', pattern: '^[0-9a-f]{7,}?$' };
    const members = {
      openapi: '3.0.3',
      info: { title: 'Team', version: '1' },
      paths: {
        '/members': {
          get: {
            responses: {
              '200': {
                description: 'Members.',
                content: {
                  'application/json': {
                    schema: {
                      type: 'object',
                      properties: {
                        values: { type: 'array', uniqueItems: true, items: { type: 'object', properties: { name: { type: 'string' } } } },
                        head: { $ref: '#/components/schemas/branch' },
                      },
                    },
                  },
                },
              },
            },
          },
        },
        '/pipelines/{id}/stop': { post: { responses: { '204': { description: 'Stopped.' } } } },
      },
      components: {
        schemas: {
          // A branch's repository has a main branch, whose repository…: the sampler cuts it, leaving an object without its required keys.
          branch: { type: 'object', properties: { hash, repository: { $ref: '#/components/schemas/repository' } }, required: ['hash'] },
          repository: { type: 'object', properties: { type: { type: 'string' }, mainbranch: { $ref: '#/components/schemas/branch' } }, required: ['type'] },
        },
      },
    };
    const answers: string[] = [];
    for (let run = 0; run < 2; run++) {
      const upstream = await startSampledUpstream(members);
      try {
        const response = await fetch(`${upstream.url}/members`);
        answers.push(await response.text());
        const stopped = await fetch(`${upstream.url}/pipelines/p1/stop`, { method: 'POST' });
        expect(stopped.status).toBe(204);
        expect(await stopped.text()).toBe('');
      } finally {
        await upstream.close();
      }
    }
    expect(answers[1]).toBe(answers[0]);
    const answer = JSON.parse(answers[0]!) as { values: unknown[]; head: { hash: string; repository?: { type: string; mainbranch?: { hash?: string } } } };
    expect(answer.values).toHaveLength(1);
    expect(answer.head.hash).toMatch(/^[0-9a-f]{7,}$/);
    // Whatever of the recursion is left holds to the document: every branch has its hash.
    const mainbranch = answer.head.repository?.mainbranch;
    expect(mainbranch === undefined || /^[0-9a-f]{7,}$/.test(mainbranch.hash ?? '')).toBe(true);
  });
});
