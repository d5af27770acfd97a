import { logger, readJson, readProjectConfiguration, type Tree } from '@nx/devkit';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appGenerator } from '../../src/generators/app/generator';
import { openApiGenerator } from '../../src/generators/openapi/generator';
import { OpenApiDocumentError } from '../../src/openapi/load-document';
import { openApiSyncGenerator } from '../../src/generators/openapi-sync/generator';
import { createWorkspaceTree } from '../support/workspace-tree';
import { petsDocument, startDocumentServer } from '../support/document-server';

const example = (path: string) => join(require.resolve('@readme/oas-examples/package.json'), '..', path);

// Folders for documents written by a test, removed when the file's tests end.
const scratch: string[] = [];
const scratchDir = (prefix: string) => {
  scratch.push(mkdtempSync(join(tmpdir(), prefix)));
  return scratch.at(-1)!;
};
afterAll(() => scratch.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe('openapi generator', () => {
  let tree: Tree;
  beforeEach(() => {
    tree = createWorkspaceTree();
  });

  it('refuses --credentialHeader=authorization, which MCP\'s own authorization uses, and writes nothing', async () => {
    await expect(openApiGenerator(tree, { name: 'petstore', spec: example('3.0/json/petstore.json'), credentialHeader: 'Authorization', skipInstall: true })).rejects.toThrow(
      "--credentialHeader=authorization is refused: MCP's own authorization (the client's OAuth token for this server) uses that header",
    );
    expect(tree.exists('libs/toolsets/petstore')).toBe(false);
  });

  it('creates a toolset library with the document, its config and generated sources, from JSON or YAML', async () => {
    await openApiGenerator(tree, { name: 'petstore', spec: example('3.0/yaml/petstore.yaml'), credentialHeader: 'X-Petstore-Key', skipInstall: true });
    const root = 'libs/toolsets/petstore';
    expect(readProjectConfiguration(tree, '@toolsets/petstore').tags).toEqual(['type:toolset']);
    expect(readJson(tree, `${root}/openapi.config.json`)).toEqual({ name: 'petstore', credentialHeader: 'x-petstore-key', schemaBudget: 16384, tools: {} });
    expect(readJson(tree, `${root}/openapi.json`).info.title).toBe('Swagger Petstore');
    const toolset = tree.read(`${root}/src/generated/petstore.toolset.ts`, 'utf-8')!;
    expect(toolset).toContain('export class PetstoreToolset {');
    expect(toolset).toContain("credentialHeaders: ['x-petstore-key']");
    expect(tree.exists(`${root}/src/lib/petstore.toolset.ts`)).toBe(false);
    expect(tree.read(`${root}/test/petstore.tools.spec.ts`, 'utf-8')).toContain("import { PetstoreToolset } from '../src';");
  });

  it('adds @toolsets/openapi, which the generated code imports, where the workspace does not build it', async () => {
    await openApiGenerator(tree, { name: 'petstore', spec: example('3.0/json/petstore.json'), skipInstall: true });
    expect(readJson(tree, 'package.json').dependencies['@toolsets/openapi']).toBe(JSON.parse(readFileSync(join(__dirname, '../../../../libs/openapi/package.json'), 'utf-8')).version);
    expect(tree.read('libs/toolsets/petstore/src/generated/petstore.toolset.ts', 'utf-8')).toContain("from '@toolsets/openapi'");
  });

  it('generates from a URL, recording it and the header variable as the source, never the header value', async () => {
    const api = await startDocumentServer(petsDocument({ id: { type: 'integer' }, name: { type: 'string' } }));
    process.env['PETS_SPEC_TOKEN'] = 'Bearer s3cret';
    try {
      const url = `${api.origin}/private/openapi.json`;
      await openApiGenerator(tree, { name: 'pets', spec: url, specHeader: 'Authorization:PETS_SPEC_TOKEN', skipInstall: true });
      expect(readJson(tree, 'libs/toolsets/pets/openapi.config.json')).toMatchObject({ name: 'pets', source: url, sourceHeaders: { authorization: 'PETS_SPEC_TOKEN' } });
      expect(readJson(tree, 'libs/toolsets/pets/openapi.json')).toEqual(api.document);
      expect(tree.read('libs/toolsets/pets/openapi.config.json', 'utf-8')).not.toContain('s3cret');
      await expect(openApiGenerator(createWorkspaceTree(), { name: 'pets', spec: `${api.origin}/html`, skipInstall: true })).rejects.toThrow(`Could not use the OpenAPI document at ${api.origin}/html: the answer (200) is not an OpenAPI document`);
      await expect(openApiGenerator(createWorkspaceTree(), { name: 'pets', spec: example('3.0/json/petstore.json'), specHeader: 'authorization:X', skipInstall: true })).rejects.toThrow('--specHeader applies to a --spec URL');
      await expect(openApiGenerator(createWorkspaceTree(), { name: 'pets', spec: url, specHeader: 'authorization=Bearer x', skipInstall: true })).rejects.toThrow('is not <header>:<ENVIRONMENT_VARIABLE>');
    } finally {
      delete process.env['PETS_SPEC_TOKEN'];
      await api.close();
    }
  });

  it('derives the credential header from the document when none is given (an apiKey header, with dashes)', async () => {
    await openApiGenerator(tree, { name: 'petstore', spec: example('3.0/json/petstore.json'), skipInstall: true });
    expect(readJson(tree, 'libs/toolsets/petstore/openapi.config.json').credentialHeader).toBe('api-key');
    const toolset = tree.read('libs/toolsets/petstore/src/generated/petstore.toolset.ts', 'utf-8')!;
    expect(toolset).toContain("credentialHeaders: ['api-key']");
    expect(toolset).toContain("sendAs: { in: 'header', name: 'api_key' }");
    // docs/openapi.md says exactly this, so the page and the generator cannot drift apart.
    const documented = readFileSync(join(__dirname, '../../../../docs/openapi.md'), 'utf-8').replace(/\s+/g, ' ');
    expect(documented).toContain("petstore's `api_key` is sent to the server as `api-key`, and upstream as `api_key`");
  });

  it('names the credential headers of query keys after what they carry (a boards API: x-boards-key, x-boards-token)', async () => {
    const dir = scratchDir('toolsets-boards-');
    const spec = join(dir, 'boards.json');
    writeFileSync(
      spec,
      JSON.stringify({
        openapi: '3.0.3',
        info: { title: 'Boards', version: '1' },
        servers: [{ url: 'https://boards.example/1' }],
        security: [{ api_key: [] }, { api_token: [] }],
        components: { securitySchemes: { api_key: { type: 'apiKey', in: 'query', name: 'key' }, api_token: { type: 'apiKey', in: 'query', name: 'token' } } },
        paths: { '/boards': { get: { operationId: 'listBoards', responses: { '200': { description: 'OK', content: { 'application/json': { schema: { type: 'array', items: { type: 'object' } } } } } } } } },
      }),
    );
    await openApiGenerator(tree, { name: 'boards', spec, skipInstall: true });
    expect(readJson(tree, 'libs/toolsets/boards/openapi.config.json').credentialHeader).toBe('x-boards-key');
    expect(tree.read('libs/toolsets/boards/src/generated/boards.toolset.ts', 'utf-8')).toContain("credentialHeaders: ['x-boards-key', 'x-boards-token']");
  });

  it('refuses a document that fails validation, naming what is wrong and the place, and writes nothing', async () => {
    // A response without its required `description`: the parser's schema validation, not a read error.
    const invalid = { openapi: '3.0.3', info: { title: 'x', version: '1' }, paths: { '/pets': { get: { operationId: 'listPets', responses: { 200: {} } } } } };
    const spec = join(scratchDir('openapi-'), 'invalid.json');
    writeFileSync(spec, JSON.stringify(invalid));
    const before = tree.listChanges().length;
    const refusal = openApiGenerator(tree, { name: 'broken', spec, skipInstall: true });
    await expect(refusal).rejects.toThrow(`${spec} is not an OpenAPI document this generator can use`);
    await expect(refusal).rejects.toThrow(`the required \`description\` is missing at ${spec}:1 (#/paths/~1pets/get/responses/200)`);
    expect(tree.listChanges()).toHaveLength(before);
    expect(tree.exists('libs/toolsets/broken')).toBe(false);
    // The same document with the description is accepted: the refusal was for that field.
    invalid.paths['/pets'].get.responses[200] = { description: 'The pets.' } as never;
    writeFileSync(spec, JSON.stringify(invalid));
    await openApiGenerator(tree, { name: 'fixed', spec, skipInstall: true });
    expect(tree.exists('libs/toolsets/fixed/src/generated/fixed.toolset.ts')).toBe(true);
  });

  it('names the line of the YAML file as written, and says that type: null is a 3.1 construct in a 3.0 document', async () => {
    const spec = join(scratchDir('openapi-'), 'nullable.yaml');
    const yaml = [
      'openapi: 3.0.3',
      'info:',
      '  title: Nullable',
      '  version: "1"',
      '# a comment line, which a re-serialised copy would not have',
      'paths:',
      '  /pets:',
      '    get:',
      '      operationId: listPets',
      '      responses:',
      '        "200":',
      '          description: OK',
      '          content:',
      '            application/json:',
      '              schema:',
      "                type: 'null'",
    ].join('\n');
    writeFileSync(spec, yaml);
    const refusal = openApiGenerator(tree, { name: 'nullable', spec, skipInstall: true });
    await expect(refusal).rejects.toThrow(`at ${spec}:16 (#/paths/~1pets/get/responses/200/content/application~1json/schema/type)`);
    await expect(refusal).rejects.toThrow("`type: 'null'` is an OpenAPI 3.1 construct: in a 3.0.3 document write `nullable: true` on the schema, or declare `openapi: 3.1.0`.");
    expect(tree.exists('libs/toolsets/nullable')).toBe(false);
  });

  it('reports each fault of a 3.0 document once, at the line written, however many operations reach it', async () => {
    const spec = join(scratchDir('openapi-'), 'ledger.yaml');
    const operation = (id: string) => [`    get:`, `      operationId: ${id}`, '      responses:', '        "200":', '          description: OK', '          content:', '            application/json:', '              schema:', "                $ref: '#/components/schemas/Invoice'"];
    const yaml = [
      'openapi: 3.0.3',
      'info:',
      '  title: Ledger',
      '  version: "1"',
      'paths:',
      '  /invoices:',
      ...operation('listInvoices'),
      '  /invoices/{id}:',
      ...operation('getInvoice'),
      '  /drafts:',
      ...operation('listDrafts'),
      'components:',
      '  schemas:',
      '    Invoice:',
      '      type: object',
      '      properties:',
      '        paid_at:',
      "          type: 'null'",
      '        total:',
      '          type: number',
      '          minimum: "zero"',
    ].join('\n');
    writeFileSync(spec, yaml);
    const lineOf = (text: string) => yaml.split('\n').indexOf(text) + 1;
    const refusal = openApiGenerator(tree, { name: 'ledger', spec, skipInstall: true });
    await expect(refusal).rejects.toThrow(OpenApiDocumentError);
    const message = String(await refusal.catch((error: Error) => error.message));
    // Two faults, two lines: not one per operation that reaches the schema.
    expect(message.split('\n').filter((line) => line.startsWith('- '))).toEqual([
      `- \`type\` is "null", which is not one of "array", "boolean", "integer", "number", "object", "string" at ${spec}:${lineOf("          type: 'null'")} (#/components/schemas/Invoice/properties/paid_at/type)`,
      `- \`minimum\` must be number (it is a string) at ${spec}:${lineOf('          minimum: "zero"')} (#/components/schemas/Invoice/properties/total/minimum)`,
    ]);
    expect(message).toContain("`type: 'null'` is an OpenAPI 3.1 construct");
  });

  it("reads a 3.0 document's $ref as OpenAPI 3.0 says, without the keywords beside it, and says so", async () => {
    const spec = join(scratchDir('openapi-'), 'xero.json');
    const document = {
      openapi: '3.0.0',
      info: { title: 'Xero', version: '1' },
      servers: [{ url: 'https://api.xero.example' }],
      paths: {
        '/Invoices': {
          get: {
            operationId: 'getInvoices',
            responses: { '200': { description: 'OK', content: { 'application/json': { schema: { $ref: '#/components/schemas/Invoices' } } } } },
          },
        },
      },
      components: {
        schemas: {
          Invoices: { type: 'object', properties: { Invoices: { type: 'array', items: { $ref: '#/components/schemas/Invoice' } } } },
          // As an accounting API writes it: a sibling `type` that 3.0 says to ignore.
          Invoice: { type: 'object', properties: { Total: { type: 'number' }, Contact: { $ref: '#/components/schemas/Contact', type: 'array', description: 'Who it is for.' } } },
          Contact: { type: 'object', properties: { Name: { type: 'string' } } },
        },
      },
    };
    writeFileSync(spec, JSON.stringify(document, null, 2));
    const warnings: string[] = [];
    const warn = jest.spyOn(logger, 'warn').mockImplementation((message: unknown) => void warnings.push(String(message)));
    try {
      await openApiGenerator(tree, { name: 'xero', spec, skipInstall: true });
    } finally {
      warn.mockRestore();
    }
    const dtos = tree.read('libs/toolsets/xero/src/generated/dtos.ts', 'utf-8')!;
    expect(dtos).toContain("@Field(() => Contact, { description: 'Who it is for.' })\n  @IsOptional()\n  Contact?: Contact;");
    expect(warnings.join('\n')).toContain(`OpenAPI 3.0 ignores keywords beside a \`$ref\`, so 1 \`$ref\` were read without them: \`type\` at ${spec}:`);
    expect(warnings.join('\n')).toContain('(#/components/schemas/Invoice/properties/Contact)');
  });

  it('converts a Swagger 2.0 document with swagger2openapi, and keeps the converted document', async () => {
    await openApiGenerator(tree, { name: 'petstore', spec: example('2.0/json/petstore.json'), skipInstall: true });
    const root = 'libs/toolsets/petstore';
    const kept = readJson(tree, `${root}/openapi.json`);
    expect(kept.openapi).toMatch(/^3\.0\./);
    expect(kept.swagger).toBeUndefined();
    const toolset = tree.read(`${root}/src/generated/petstore.toolset.ts`, 'utf-8')!;
    expect(toolset).toContain("name: 'get_pet_by_id'");
    expect(toolset).toContain("name: 'add_pet'");
  });

  it('refuses a spec path that does not exist, saying so, and writes nothing', async () => {
    const before = tree.listChanges().length;
    await expect(openApiGenerator(tree, { name: 'broken', spec: example('3.0/json/nope-does-not-exist.json'), skipInstall: true })).rejects.toThrow(/ENOENT|no such file/);
    expect(tree.listChanges()).toHaveLength(before);
  });

  it('is kept in sync: an edit to generated code is out of sync until regenerated', async () => {
    await openApiGenerator(tree, { name: 'petstore', spec: example('3.0/json/petstore.json'), skipInstall: true });
    expect(await openApiSyncGenerator(tree)).toEqual({});
    const file = 'libs/toolsets/petstore/src/generated/dtos.ts';
    const original = tree.read(file, 'utf-8')!;
    tree.write(file, original.replace('export class Pet {', 'export class Pet { // edited by hand'));
    expect(await openApiSyncGenerator(tree)).toEqual({ outOfSyncMessage: expect.stringContaining('The generated code of @toolsets/petstore differs') });
    expect(tree.read(file, 'utf-8')).toBe(original);
  });

  it("applies the library's OpenAPI Overlay before generating, and stops at an action whose target is gone, naming it and the fix", async () => {
    await openApiGenerator(tree, { name: 'petstore', spec: example('3.0/json/petstore.json'), skipInstall: true });
    const root = 'libs/toolsets/petstore';
    const config = readJson(tree, `${root}/openapi.config.json`);
    tree.write(`${root}/openapi.config.json`, JSON.stringify({ ...config, overlay: 'openapi.overlay.yaml' }));
    tree.write(
      `${root}/openapi.overlay.yaml`,
      [
        'overlay: 1.0.0',
        'info: { title: Pets for models, version: 1.0.0 }',
        'actions:',
        "  - target: $.paths['/pet/{petId}'].get",
        '    description: Say what the tool is for',
        '    update: { summary: Look up one pet by its number., description: "" }',
        "  - target: $.paths['/user/logout'].get",
        '    description: Not a tool for models',
        '    update: { x-mcp: false }',
      ].join('\n'),
    );
    await openApiSyncGenerator(tree);
    const toolset = tree.read(`${root}/src/generated/petstore.toolset.ts`, 'utf-8')!;
    expect(toolset).toContain("description: 'Look up one pet by its number.'");
    expect(toolset).not.toContain("name: 'logout_user'");
    // The library's copy of the document stays the upstream's: the overlay applies on the way to the generator.
    expect(tree.read(`${root}/openapi.json`, 'utf-8')).not.toContain('Look up one pet');

    tree.write(`${root}/openapi.overlay.yaml`, ['overlay: 1.0.0', 'info: { title: Pets, version: 1.0.0 }', 'actions:', "  - target: $.paths['/pets/{petId}'].get", '    description: Renamed upstream', '    update: { summary: x }'].join('\n'));
    await expect(openApiSyncGenerator(tree)).rejects.toThrow(
      `libs/toolsets/petstore/openapi.overlay.yaml does not apply to the document:\n- the action "Renamed upstream" targets "$.paths['/pets/{petId}'].get", which matches nothing in the document (renamed or removed upstream?)\nPoint each action's target at what the document has now, or remove the action.`,
    );
    tree.write(`${root}/openapi.overlay.yaml`, 'actions: []');
    await expect(openApiSyncGenerator(tree)).rejects.toThrow('is not an OpenAPI Overlay: it needs "overlay": "1.0.0"');
  });

  it('with --groupBy=tag writes one toolset per tag, an app serves them all as one server, and turning it off removes their files', async () => {
    await openApiGenerator(tree, { name: 'petstore', spec: example('3.0/json/petstore.json'), groupBy: 'tag', skipInstall: true });
    const root = 'libs/toolsets/petstore';
    expect(readJson(tree, `${root}/openapi.config.json`).groupBy).toBe('tag');
    expect(tree.children(`${root}/src/generated`).sort()).toEqual(['dtos.ts', 'pet.toolset.ts', 'petstore.client.ts', 'store.toolset.ts', 'user.toolset.ts']);
    expect(tree.read(`${root}/test/petstore.tools.spec.ts`, 'utf-8')).toContain('connectToolset([PetstorePetToolset, PetstoreStoreToolset, PetstoreUserToolset])');
    await appGenerator(tree, { name: 'petstore-server', toolsets: 'petstore' });
    const servers = tree.read('apps/petstore-server/src/servers.ts', 'utf-8')!;
    for (const cls of ['PetstorePetToolset', 'PetstoreStoreToolset', 'PetstoreUserToolset']) expect(servers).toContain(cls);
    const config = readJson(tree, `${root}/openapi.config.json`);
    delete config.groupBy;
    tree.write(`${root}/openapi.config.json`, JSON.stringify(config));
    expect(await openApiSyncGenerator(tree)).toEqual({ outOfSyncMessage: expect.stringContaining('differs') });
    expect(tree.children(`${root}/src/generated`).sort()).toEqual(['dtos.ts', 'petstore.toolset.ts']);
  });

  it('refuses a --groupBy it does not know, and writes nothing', async () => {
    const before = tree.listChanges().length;
    await expect(openApiGenerator(tree, { name: 'petstore', spec: example('3.0/json/petstore.json'), groupBy: 'path' as 'tag', skipInstall: true })).rejects.toThrow(
      '--groupBy=path is not a grouping: use --groupBy=tag (one toolset per tag), or leave it out (one toolset).',
    );
    expect(tree.listChanges()).toHaveLength(before);
  });

  it('an installable app serving an OpenAPI toolset bundles @toolsets/openapi, which the toolset imports, too', async () => {
    await openApiGenerator(tree, { name: 'petstore', spec: example('3.0/yaml/petstore.yaml'), skipInstall: true });
    await appGenerator(tree, { name: 'petstore-server', toolsets: 'petstore', publishable: true });
    const manifest = readJson(tree, 'apps/petstore-server/package.json');
    expect(manifest.bundleDependencies).toEqual(['@toolsets/core', '@toolsets/petstore', '@toolsets/openapi']);
    expect(Object.keys(manifest.dependencies)).toContain('@toolsets/openapi');
  });
});
