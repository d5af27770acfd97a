import 'reflect-metadata';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { findToolsets, runContractGate } from '@toolsets/core';
import { generateToolset } from '../../src/openapi/generate-toolset';
import { gatedCatalogInChild, loadGeneratedSources } from '../../src/openapi/load-generated';
import { fromSwagger2 } from '../../src/openapi/swagger2';

const WORKSPACE_ROOT = join(__dirname, '../../../..');

/** Where a payload writes if it ever runs: the test fails if this file exists. */
const MARKER = join(tmpdir(), `toolsets-openapi-payload-ran-${process.pid}`);
const RUN = `require('fs').writeFileSync(${JSON.stringify(MARKER)}, 'ran')`;

/** A number keyword's value that is code: a 3.1 document is not validated against `minItems: string`. */
const NUM = `0 + (${RUN}, 0)`;

/** Every way a string could leave a literal, a comment or a template in generated source, then run code. */
const S = [
  `x"); ${RUN}; ("`,
  `'); ${RUN}; ('`,
  `\`); ${RUN}; (\``,
  `*/ ${RUN}; /*`,
  `\n${RUN};//`,
  `\r${RUN};//`,
  `\u2028${RUN};//`,
  `\${${RUN}}`,
  `</script>${RUN}`,
].join(' ');

/** A valid pattern that holds quotes and a comment end, so it is kept and emitted. */
const PATTERN = "^[a-z\"'`*/]*$";

function thingSchema() {
  return {
    type: 'object',
    title: S,
    description: S,
    'x-thing': S,
    required: ['name'],
    properties: {
      [S]: { type: 'string', description: S, example: S },
      name: { type: 'string', enum: ['plain', S], default: S, description: S },
      code: { type: 'string', pattern: PATTERN, format: S, minLength: 1, maxLength: 40 },
      tags: { type: 'array', items: { type: 'string', enum: ['a', S] }, minItems: 0, maxItems: 5, uniqueItems: true },
      size: { type: 'integer', minimum: 0, maximum: 10, default: 3, description: S },
      self: { $ref: '#/components/schemas/Thing' },
      extra: { type: 'object', additionalProperties: { type: 'string', description: S } },
    },
  };
}

/** An OpenAPI 3.x document with a payload in every field the generator reads. */
function openApi3(version: '3.0.3' | '3.1.0') {
  const numbers = version === '3.1.0' ? { minItems: NUM, maxItems: NUM } : { minItems: 1, maxItems: 3 };
  const bounds = version === '3.1.0' ? { minimum: NUM, maximum: NUM, exclusiveMinimum: NUM, minLength: NUM } : { minimum: 1, maximum: 9 };
  return {
    openapi: version,
    info: { title: S, version: '1.0.0', description: S, 'x-logo': { url: S } },
    servers: [{ url: 'https://{region}.example.com/v1', description: S, variables: { region: { default: 'eu', enum: ['eu', S], description: S } } }],
    tags: [{ name: 'things', description: S, 'x-tag': S }, { name: S, description: S }],
    security: [{ key: [] }],
    paths: {
      '/things/{thingId}': {
        'x-path': S,
        parameters: [{ name: 'thingId', in: 'path', required: true, description: S, schema: { type: 'string', pattern: PATTERN, default: S, example: S } }],
        get: {
          operationId: 'getThing',
          summary: S,
          description: S,
          tags: ['things', S],
          'x-mcp': S,
          parameters: [
            { name: S, in: 'query', description: S, example: S, schema: { type: 'array', items: { type: 'string', enum: ['a', S] }, ...numbers, default: [S] } },
            { name: 'limit', in: 'query', description: S, schema: { type: 'integer', ...bounds, default: 5 } },
            { name: 'text', in: 'query', schema: { type: 'string', minLength: version === '3.1.0' ? NUM : 1, format: S, default: S } },
            { name: 'x-trace', in: 'header', description: S, schema: { type: 'string', default: S } },
          ],
          responses: {
            '200': { description: S, content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' }, example: { name: S } } } },
            default: { description: S },
          },
        },
        put: {
          operationId: `put${S}`,
          summary: S,
          requestBody: { required: true, description: S, content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } },
          responses: { '200': { description: S, content: { 'application/json': { schema: { type: 'object', properties: { [S]: { type: 'number', maximum: version === '3.1.0' ? NUM : 3 } } } } } } },
        },
      },
    },
    components: {
      schemas: {
        Thing: thingSchema(),
        [`Odd${S.replace(/[^A-Za-z0-9._-]/g, '')}`]: { type: 'string', description: S },
      },
      securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'x-api-key', description: S } },
    },
  };
}

/** The same in Swagger 2.0, which the generator converts first. */
function swagger2() {
  return {
    swagger: '2.0',
    info: { title: S, version: '1.0.0', description: S },
    host: 'api.example.com',
    basePath: '/v1',
    schemes: ['https'],
    tags: [{ name: 'things', description: S }],
    securityDefinitions: { key: { type: 'apiKey', in: 'header', name: 'x-api-key', description: S } },
    security: [{ key: [] }],
    paths: {
      '/things/{thingId}': {
        get: {
          operationId: 'getThing',
          summary: S,
          description: S,
          tags: ['things'],
          'x-mcp': S,
          parameters: [
            { name: 'thingId', in: 'path', required: true, type: 'string', description: S, pattern: PATTERN },
            { name: S, in: 'query', type: 'array', items: { type: 'string', enum: ['a', S] }, minItems: 1, maxItems: 3, description: S },
            { name: 'note', in: 'query', type: 'string', default: S, enum: [S, 'plain'] },
          ],
          responses: { '200': { description: S, schema: { $ref: '#/definitions/Thing' } } },
        },
      },
    },
    definitions: { Thing: { ...thingSchema(), properties: { ...thingSchema().properties, self: { $ref: '#/definitions/Thing' } } } },
  };
}

/** Generates, typechecks the syntax, compiles and loads the library, and runs the startup gate over it, as the refresh does. */
async function throughEveryStage(document: unknown): Promise<{ warnings: readonly string[]; tools: string[] } | { refused: string }> {
  let generated;
  try {
    generated = await generateToolset('hostile', document, { credentialHeader: 'x-hostile-key' });
  } catch (error) {
    return { refused: (error as Error).message };
  }
  for (const [file, source] of Object.entries(generated.files)) {
    const parsed = ts.transpileModule(source, { reportDiagnostics: true, compilerOptions: { experimentalDecorators: true, emitDecoratorMetadata: true } });
    expect({ file, syntaxErrors: parsed.diagnostics?.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')) ?? [] }).toEqual({ file, syntaxErrors: [] });
  }
  const exported = loadGeneratedSources(generated.files);
  const catalog = runContractGate('hostile', findToolsets(exported));
  // As the generator's size report and openapi-refresh load it: in a child process.
  expect(gatedCatalogInChild(WORKSPACE_ROOT, generated.files, 'hostile').map((entry) => entry.name)).toEqual([...catalog.tools.keys()]);
  return { warnings: generated.warnings, tools: [...catalog.tools.keys()] };
}

describe('a hostile OpenAPI document', () => {
  beforeEach(() => rmSync(MARKER, { force: true }));
  afterAll(() => rmSync(MARKER, { force: true }));

  it('3.1, with code in every field and in its count and bound keywords: generates inert code, drops the bad numbers by name, never runs the payload', async () => {
    const outcome = await throughEveryStage(openApi3('3.1.0'));
    expect(existsSync(MARKER)).toBe(false);
    expect('refused' in outcome).toBe(false);
    const { warnings, tools } = outcome as { warnings: string[]; tools: string[] };
    expect(tools).toContain('get_thing');
    for (const keyword of ['minItems', 'maxItems', 'minimum', 'maximum', 'exclusiveMinimum', 'minLength']) {
      expect(warnings.some((line) => line.includes(`${keyword} "0 + (require`) && line.endsWith('it was dropped'))).toBe(true);
    }
  });

  it('3.0, with code in every string field: generates inert code and never runs the payload', async () => {
    const outcome = await throughEveryStage(openApi3('3.0.3'));
    expect(existsSync(MARKER)).toBe(false);
    expect(outcome).toMatchObject({ tools: expect.arrayContaining(['get_thing']) });
  });

  it('3.0 with code where a count goes: refused by the document check, naming the place, never run', async () => {
    const document = openApi3('3.0.3');
    (document.components.schemas.Thing.properties.tags as Record<string, unknown>)['minItems'] = NUM;
    const outcome = await throughEveryStage(document);
    expect(existsSync(MARKER)).toBe(false);
    // A 3.0 document is validated against its schema, where a count must be a whole number: refused before anything is generated.
    expect(outcome).toEqual({ refused: expect.stringContaining('`minItems` must be integer (it is a string) at (#/components/schemas/Thing/properties/tags/minItems)') });
  });

  it('Swagger 2.0, with code in every string field: converted, generated inert, never runs the payload', async () => {
    // As the generator and the refresh executor read it: converted by swagger2openapi, then generated.
    const outcome = await throughEveryStage(await fromSwagger2(swagger2(), 'swagger.json'));
    expect(existsSync(MARKER)).toBe(false);
    expect(outcome).toMatchObject({ tools: expect.arrayContaining(['get_thing']) });
  });

  it("is loaded for the size report and the refresh in a child process whose environment holds none of the caller's secrets", async () => {
    const seen = join(tmpdir(), `toolsets-openapi-child-env-${process.pid}`);
    const generated = await generateToolset('hostile', openApi3('3.1.0'), { credentialHeader: 'x-hostile-key' });
    // What code smuggled into a generated module could read: the process environment.
    const dtos = generated.files['src/generated/dtos.ts']!;
    const files = { ...generated.files, 'src/generated/dtos.ts': `require('fs').writeFileSync(${JSON.stringify(seen)}, JSON.stringify(process.env));\n${dtos}` };
    process.env['HOSTILE_SPEC_TOKEN'] = 'spec-token-value';
    try {
      expect(gatedCatalogInChild(WORKSPACE_ROOT, files, 'hostile').length).toBeGreaterThan(0);
      const env = JSON.parse(readFileSync(seen, 'utf-8')) as Record<string, string>;
      expect(Object.keys(env).filter((key) => !['PATH'].includes(key) && !key.startsWith('LC_') && key !== '_')).toEqual([]);
      expect(JSON.stringify(env)).not.toContain('spec-token-value');
    } finally {
      delete process.env['HOSTILE_SPEC_TOKEN'];
      rmSync(seen, { force: true });
    }
  });

  it('reports a catalog the gate refuses with the gate\'s own message', () => {
    const files = { 'src/generated/broken.toolset.ts': "import { Toolset } from '@toolsets/core';\n@Toolset({ name: 'broken' })\nexport class BrokenToolset {}\n" };
    // The gate's own words: what is wrong with which class, and the fix (not merely the toolset's name).
    expect(() => gatedCatalogInChild(WORKSPACE_ROOT, files, 'broken')).toThrow(/'BrokenToolset' has no @Tool methods[\s\S]*decorate at least one method with/);
  });
});
