import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyHttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { startServerProcess } from '@toolsets/testing';
import { startPetstoreUpstream } from './support/petstore-upstream';
import { copyWorkspace, nxIn } from './support/workspace-copy';
import { documentedBlocks, normalised, specFile } from './support/readme-blocks';

type AnyClient = { listTools(): Promise<unknown>; callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<Record<string, unknown>>; close(): Promise<void> };

async function mcpClient(era: 'modern' | 'legacy', url: string, headers: Record<string, string>): Promise<AnyClient> {
  if (era === 'modern') {
    const client = new Client({ name: 'openapi-e2e', version: '0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
    return client as unknown as AnyClient;
  }
  const client = new LegacyClient({ name: 'openapi-e2e-2025', version: '0' });
  await client.connect(new LegacyHttpTransport(new URL(url), { requestInit: { headers } }));
  return client as unknown as AnyClient;
}

/** Where the OpenAPI test generates its library: documented blocks there are written once it exists. */
const PETSTORE_LIBRARY = 'libs/toolsets/petstore/';

describe('in a throwaway copy of the workspace', () => {
  let copy: string;

  const nx = (...args: string[]) => nxIn(copy, ...args);

  beforeAll(() => {
    copy = copyWorkspace('toolsets-generators-');
  });
  afterAll(() => rmSync(copy, { recursive: true, force: true }));

  it('generated projects, with every documented example in them, pass lint, typecheck, test, contract and build, and the app serves', async () => {
    nx('g', '@toolsets/workspace-plugin:toolset', 'library', '--description=Books and loans.', '--credentialHeader=x-library-key', '--skipInstall', '--no-interactive');
    nx('g', '@toolsets/workspace-plugin:tool', 'library', 'find-book', '--description=Find a book by its title.', '--no-interactive');
    nx('g', '@toolsets/workspace-plugin:view', 'library', 'echo-card', '--tool=echo', '--description=The echoed text as a card.', '--no-interactive');
    nx('g', '@toolsets/workspace-plugin:app', 'library-server', '--toolsets=library,hello', '--no-interactive');

    // What `npm install` does for the new workspace package (skipped: this copy shares node_modules).
    symlinkSync('../../libs/toolsets/library', join(copy, 'node_modules/@toolsets/library'));

    // Every ts block of the README and of docs/ goes into the generated projects, so lint, typecheck and
    // test below check the examples too; a block that shows generated code must match what the generator wrote.
    const blocks = documentedBlocks(copy).filter((block) => !block.path.startsWith(PETSTORE_LIBRARY));
    expect(blocks.map((block) => block.mode).sort()).toEqual(['file', 'file', 'file', 'file', 'file', 'file', 'file', 'file', 'file', 'file', 'file', 'file', 'file', 'generated', 'generated', 'spec', 'spec', 'spec', 'spec', 'spec', 'spec', 'spec', 'spec']);
    for (const block of blocks) {
      const target = join(copy, block.path);
      if (block.mode === 'generated') {
        expect(normalised(readFileSync(target, 'utf-8'))).toContain(normalised(block.code));
        continue;
      }
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, block.mode === 'spec' ? specFile(block) : `${block.code}\n`);
    }

    // The app also serves the curated server docs/authoring-toolsets.md shows: its contract target records the curation.
    const servers = join(copy, 'apps/library-server/src/servers.ts');
    writeFileSync(
      servers,
      readFileSync(servers, 'utf-8')
        .replace("import { buildServer, type ServerDefinition } from '@toolsets/core';", "import { buildServer, type ServerDefinition } from '@toolsets/core';\nimport { buildKidsServer } from './readme/curated-servers';")
        .replace('export function buildServers(): ServerDefinition {', 'export function buildServers(): ServerDefinition[] {')
        .replace(/return (buildServer\(\{[^;]*\}\));/, 'return [$1, buildKidsServer()];'),
    );

    const output = nx('run-many', '-t', 'lint', 'typecheck', 'test', 'contract', 'build', '-p', '@toolsets/library', 'library-server', '--outputStyle=static');
    expect(output).toContain('server kids-library serves 2 curated tools: comparing them with contract.kids-library.json');
    expect(output).toContain('Wrote apps/library-server/contract.kids-library.json: 2 tools at version 0.1.0.');
    expect(output).toContain('Successfully ran targets lint, typecheck, test, contract, build for 2 projects');
    expect(output).toMatch(/PASS .*test\/readme-catalogue\.spec\.ts/);
    expect(output).toMatch(/PASS .*test\/readme-schemas\.spec\.ts/);
    expect(output).toMatch(/PASS .*test\/readme-vault\.spec\.ts/);
    expect(output).toMatch(/PASS .*test\/readme-forecast\.spec\.ts/);
    expect(output).toMatch(/PASS .*test\/readme-views\.spec\.ts/);
    expect(output).toMatch(/PASS .*test\/readme-task-client-2026\.spec\.ts/);
    expect(output).toMatch(/PASS .*test\/readme-task-client-2025\.spec\.ts/);
    // The library's build bundled the view (docs/views.md's main.ts) into one page.
    expect(output).toMatch(/built view echo-card: libs\/toolsets\/library\/dist\/views\/echo-card\.html \(\d+ bytes\)/);
    // The app's own contract target built its servers without listening.
    expect(output).toContain('server library-server\n  toolset library');
    expect(output).toContain('library_echo(text) -> EchoResult { message: string, text: string, length: integer } | ToolError { error: string, detail: string }  [view: ui://library/echo-card]');
    expect(output).toContain('library_find_book(input) -> FindBookResult { message: string, input: string } | ToolError');
    expect(output).toContain('library_check_access() -> AccessResult { message: string, headers: string[] }');

    // The built app serves both toolsets over stdio, reading the credential from the environment.
    const client = new Client({ name: 'generated-app', version: '0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [join(copy, 'apps/library-server/dist/main.js'), '--stdio', '--server=library-server'],
        env: { PATH: process.env['PATH'] ?? '', X_LIBRARY_KEY: 'k' },
        stderr: 'pipe',
      }),
    );
    const tools = (await client.listTools()).tools.map((tool) => tool.name);
    expect(tools).toEqual(['library_echo', 'library_check_access', 'library_find_book', 'hello', 'greet_team', 'hello_card']);
    expect((await client.callTool({ name: 'library_find_book', arguments: { input: 'Dune' } })).structuredContent).toEqual({
      message: 'library_find_book received "Dune".',
      input: 'Dune',
    });
    // The built app serves the view the library's build bundled: the page with the App bridge inlined.
    const [view] = (await client.readResource({ uri: 'ui://library/echo-card' })).contents as { mimeType?: string; text?: string }[];
    expect(view?.mimeType).toBe('text/html;profile=mcp-app');
    expect(view?.text).toContain('Echo it louder');
    expect(view?.text).toContain('ui/initialize');
    expect((await client.callTool({ name: 'library_check_access', arguments: {} })).structuredContent).toEqual({
      message: 'Received 1 credential header(s).',
      headers: ['x-library-key'],
    });
    await client.close();
  });

  it('an OpenAPI toolset and an app serving it pass every target, stay in sync, and call the API over HTTP in both eras', async () => {
    const spec = 'node_modules/@readme/oas-examples/3.0/json/petstore.json';
    const generation = nx('g', '@toolsets/workspace-plugin:openapi', 'petstore', `--spec=${spec}`, '--credentialHeader=x-petstore-key', '--skipInstall', '--no-interactive');
    // The size a model pays for the catalog is measured on the built catalog: core is not built in this copy yet, so the generator names the target that prints it.
    expect(generation).toContain("The catalog's size (tools/list bytes, tokens, largest tools) is printed by nx run @toolsets/petstore:contract, which builds what it needs first.");
    // Only the explanation: not the module loader's complaint that explains nothing.
    expect(generation).not.toContain('Cannot find module');
    nx('g', '@toolsets/workspace-plugin:app', 'petstore-server', '--toolsets=petstore', '--no-interactive');
    symlinkSync('../../libs/toolsets/petstore', join(copy, 'node_modules/@toolsets/petstore'));
    // docs/openapi.md's composite tool, written beside the generated code and exported through the config.
    const composite = documentedBlocks(copy).filter((block) => block.path.startsWith(PETSTORE_LIBRARY));
    expect(composite.map((block) => block.path)).toEqual([`${PETSTORE_LIBRARY}src/pet-workflows.ts`]);
    for (const block of composite) writeFileSync(join(copy, block.path), `${block.code}\n`);
    const configFile = join(copy, PETSTORE_LIBRARY, 'openapi.config.json');
    writeFileSync(configFile, JSON.stringify({ ...JSON.parse(readFileSync(configFile, 'utf-8')), exports: ['./pet-workflows'] }, null, 2));
    nx('sync');
    // The app serves it once its server definition names it, as for any toolset class.
    const servers = join(copy, 'apps/petstore-server/src/servers.ts');
    writeFileSync(servers, readFileSync(servers, 'utf-8').replace(/import \{ PetstoreToolset \}/, 'import { PetstoreToolset, PetWorkflowsToolset }').replace('toolsets: [PetstoreToolset]', 'toolsets: [PetstoreToolset, PetWorkflowsToolset]'));
    expect(readFileSync(servers, 'utf-8')).toContain('toolsets: [PetstoreToolset, PetWorkflowsToolset]');

    const output = nx('run-many', '-t', 'lint', 'typecheck', 'test', 'contract', 'build', '-p', '@toolsets/petstore', 'petstore-server', '--outputStyle=static');
    expect(output).toContain('Successfully ran targets lint, typecheck, test, contract, build for 2 projects');
    expect(output).toContain('21 tools follow the contract.');
    expect(output).toMatch(/21 tools; tools\/list is [\d,]+ bytes \(about [\d,]+ tokens at 4 bytes a token\)\. Largest: \w+ [\d,]+ bytes/);
    expect(nx('sync:check')).toContain('up to date');
    const generated = join(copy, 'libs/toolsets/petstore/src/generated/dtos.ts');
    const original = readFileSync(generated, 'utf-8');
    writeFileSync(generated, original.replace('export class Pet {', 'export class Pet { // edited by hand'));
    expect(() => nx('sync:check')).toThrow('differs from what it is generated from (openapi.json and openapi.config.json');
    nx('sync');
    expect(readFileSync(generated, 'utf-8')).toBe(original);

    const upstream = await startPetstoreUpstream();
    const app = await startServerProcess(join(copy, 'apps/petstore-server/dist/main.js'), { PETSTORE_BASE_URL: `${upstream.origin}/v2` }, copy);
    // A failed expectation must not leave the upstream listening: Jest would wait for it forever.
    const closeUpstream = () => new Promise((done) => (upstream.server.listening ? upstream.server.close(done) : done(undefined)));
    try {
      const { origin } = app;
      for (const era of ['modern', 'legacy'] as const) {
        const client = await mcpClient(era, `${origin}/mcp`, { 'x-petstore-key': 'sk-e2e' });
        await client.listTools();
        expect((await client.callTool({ name: 'get_pet_by_id', arguments: { petId: 7 } })).structuredContent).toEqual({
          message: 'GET /v2/pet/7 returned 200 OK.',
          status: 200,
          data: { id: 7, name: 'Rex', photoUrls: [], status: 'available' },
        });
        // The composite tool: two upstream calls through the generated toolset, one typed result.
        expect((await client.callTool({ name: 'adopt_pet', arguments: { petId: 7 } })).structuredContent).toEqual({ message: 'Ordered Rex (order 1001).', orderId: 1001, petName: 'Rex' });
        const missing = await client.callTool({ name: 'get_pet_by_id', arguments: { petId: 8 } });
        expect(missing).toMatchObject({ isError: true, structuredContent: { error: 'http_404', detail: 'GET /v2/pet/8 returned 404 Not Found: Pet not found' } });
        const broken = await client.callTool({ name: 'get_pet_by_id', arguments: { petId: 13 } });
        expect(broken['isError']).toBe(true);
        expect(JSON.stringify(broken['content'])).toMatch(/correlation id/);
        await client.close();
      }
      expect(new Set(upstream.keys)).toEqual(new Set(['sk-e2e']));
      await closeUpstream();
      const down = await mcpClient('modern', `${origin}/mcp`, { 'x-petstore-key': 'sk-e2e' });
      expect((await down.callTool({ name: 'get_pet_by_id', arguments: { petId: 7 } })).structuredContent).toMatchObject({ error: 'upstream_unavailable' });
      await down.close();
    } finally {
      await app.stop();
      await closeUpstream();
    }
  });

  it('writes nothing on --dry-run', () => {
    const output = nx('g', '@toolsets/workspace-plugin:toolset', 'catalog', '--dry-run', '--skipInstall', '--no-interactive');
    expect(output).toContain('CREATE libs/toolsets/catalog/src/lib/catalog.toolset.ts');
    expect(existsSync(join(copy, 'libs/toolsets/catalog'))).toBe(false);
  });

  it.each([
    ['a toolset imports another toolset', 'libs/toolsets/hello/src/lib/cross-import.ts', '@toolsets/credential-demo', '@toolsets/hello', 'A project tagged with "type:toolset" can only depend on libs tagged with "scope:core", "type:shared", "type:testing"'],
    ['an app imports the testing library', 'apps/hello-server/src/cross-import.ts', '@toolsets/testing', 'hello-server', 'A project tagged with "type:app" can only depend on libs tagged with "scope:core", "type:toolset", "type:shared"'],
    // Every lib of ours depends on core, so core importing one is reported as the cycle it makes.
    ['core imports a toolset', 'libs/core/src/cross-import.ts', '@toolsets/hello', '@toolsets/core', 'Circular dependency between "@toolsets/core" and "@toolsets/hello"'],
  ])('fails lint when %s', (_case, file, imported, project, message) => {
    writeFileSync(join(copy, file), `export * from '${imported}';\n`);
    try {
      expect(() => nx('run', `${project}:lint`, '--skip-nx-cache')).toThrow(message);
    } finally {
      rmSync(join(copy, file));
    }
  });

  it('refuses an existing toolset with a clear message and writes nothing', () => {
    expect(() => nx('g', '@toolsets/workspace-plugin:toolset', 'hello', '--skipInstall', '--no-interactive')).toThrow(
      'libs/toolsets/hello already exists',
    );
  });
});
