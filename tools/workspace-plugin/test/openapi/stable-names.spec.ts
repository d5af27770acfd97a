import 'reflect-metadata';
import { buildServer, curate, runContractGate, type ClassType } from '@toolsets/core';
import { compareCatalogs } from '../../src/contract/compare-catalogs';
import { snapshotEntries } from '../../src/contract/catalog-entries';
import { GENERATED_DTOS, generateToolset } from '../../src/openapi/generate-toolset';
import type { OpenApiConfig } from '../../src/openapi/openapi-config';
import { loadGeneratedSources } from '../../src/openapi/load-generated';

/**
 * Three operations whose schemas share the title `Segment`: two with the same content, one
 * different, and that one is an arm of a union. A curator who narrows `include` must not see
 * the kept tools change: the class names (schema titles, union arms) come from each schema alone.
 */
const segment = () => ({ title: 'Segment', type: 'object', properties: { id: { type: 'string' }, size: { type: 'integer' } }, required: ['id'] });
const otherSegment = () => ({ title: 'Segment', type: 'object', properties: { match: { type: 'string', enum: ['any', 'all'] }, conditions: { type: 'array', items: { type: 'string' } } }, required: ['match'] });
const condition = () => ({ title: 'Condition', type: 'object', properties: { field: { type: 'string' } }, required: ['field'] });
const answer = (schema: object) => ({ '200': { description: 'OK', content: { 'application/json': { schema } } } });

const document = () => ({
  openapi: '3.0.3',
  info: { title: 'Campaigns', version: '1.0.0' },
  servers: [{ url: 'https://api.example.com' }],
  paths: {
    '/audiences': { get: { operationId: 'listAudiences', summary: 'List audiences.', responses: answer({ type: 'object', properties: { segment: segment() } }) } },
    '/campaigns': {
      post: {
        operationId: 'createCampaign',
        summary: 'Create a campaign.',
        requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', properties: { name: { type: 'string' }, segment_opts: { anyOf: [otherSegment(), condition()] } }, required: ['name'] } } } },
        responses: answer({ type: 'object', properties: { id: { type: 'string' }, segment: otherSegment() } }),
      },
    },
    '/reports': { get: { operationId: 'getReport', summary: 'Get a report.', responses: answer({ type: 'object', properties: { segment: segment(), total: { type: 'integer' } } }) } },
    // A component whose inline object another component reaches through allOf.
    '/pulls/{id}': { get: { operationId: 'getPull', summary: 'Get a pull.', parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }], responses: answer({ $ref: '#/components/schemas/pull-minimal' }) } },
    '/stacks/{id}': { get: { operationId: 'getStack', summary: 'Get a stack.', parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }], responses: answer({ $ref: '#/components/schemas/pull-stack' }) } },
  },
  components: {
    schemas: {
      'pull-minimal': { type: 'object', properties: { id: { type: 'integer' }, head: { type: 'object', properties: { ref: { type: 'string' }, sha: { type: 'string' } } } } },
      'pull-stack': { allOf: [{ $ref: '#/components/schemas/pull-minimal' }, { type: 'object', properties: { depth: { type: 'integer' } } }] },
    },
  },
});

async function catalog(config: OpenApiConfig) {
  const generated = await generateToolset('campaigns', document(), config);
  const { CampaignsToolset } = loadGeneratedSources(generated.files) as { CampaignsToolset: ClassType };
  return { dtos: generated.files[GENERATED_DTOS], tools: snapshotEntries(runContractGate('campaigns', [CampaignsToolset])) };
}

describe('generated class names', () => {
  it('stay the same for the tools kept when include narrows, so the contract reports no change in them', async () => {
    const whole = await catalog({});
    expect(whole.tools.map((tool) => tool.name).sort()).toEqual(['create_campaign', 'get_pull', 'get_report', 'get_stack', 'list_audiences']);
    for (const config of [{ exclude: ['listAudiences'] }, { exclude: ['getReport', 'listAudiences'] }, { exclude: ['createCampaign'] }, { exclude: ['getPull'] }, { include: ['getStack'] }]) {
      const narrowed = await catalog(config);
      const kept = whole.tools.filter((tool) => narrowed.tools.some((other) => other.name === tool.name));
      expect(compareCatalogs(kept, narrowed.tools)).toEqual([]);
    }
  });

  it('give one schema one class wherever it appears, and two different schemas of one title two classes', async () => {
    const { dtos } = await catalog({});
    const segmentClasses = [...dtos.matchAll(/export class (Segment\w*) /g)].map((match) => match[1]);
    expect(segmentClasses).toHaveLength(2);
    expect(new Set(segmentClasses).size).toBe(2);
    expect(segmentClasses.every((name) => /^Segment_[0-9a-f]{8}$/.test(name))).toBe(true);
  });

  it("name an inline object after its first place in the document, also where another component extends its own with allOf", async () => {
    for (const config of [{}, { include: ['getStack'] }]) {
      const { dtos } = await catalog(config);
      expect(dtos).toContain('export class PullMinimalHead ');
      expect(dtos).not.toMatch(/class PullStackHead/);
    }
  });

  it('keep a method named after its operation when the config renames its tool, so curate() keys and composite tools still compile', async () => {
    const generated = await generateToolset('campaigns', document(), { tools: { getReport: { name: 'report_summary' } } });
    const source = Object.entries(generated.files).find(([file]) => file.endsWith('.toolset.ts'))![1];
    expect(source).toMatch(/name: 'report_summary',[^]*?\n {2}getReport\(/);
    const { CampaignsToolset } = loadGeneratedSources(generated.files) as { CampaignsToolset: ClassType };
    const server = buildServer({ name: 'app', version: '1.0.0', toolsets: [curate(CampaignsToolset, { tools: { getReport: { description: 'A report, summed up.' } } } as never)] });
    expect(server.catalog.tools.get('report_summary')!.descriptor.description).toBe('A report, summed up.');
  });
});
