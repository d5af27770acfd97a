import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { withRecordedMeta } from '../src/contract/catalog-entries';
import { serializeSnapshot, snapshotOf } from '../src/contract/snapshot';
import openApiRefreshExecutor from '../src/executors/openapi-refresh/executor';
import { generateToolset } from '../src/openapi/generate-toolset';
import { gatedCatalogInChild } from '../src/openapi/load-generated';
import { petsDocument, startDocumentServer, type DocumentServer } from './support/document-server';
import { capturedConsole, executorContext } from './support/executor-context';
import { copyWorkspace, nxEnvironment, runNxAsync } from './support/workspace-copy';

const PET = { id: { type: 'integer' }, name: { type: 'string' } };

/**
 * A toolset generated from a live API's document URL follows it: `openapi-refresh` fetches it
 * again, and the contract rules classify what the upstream's change does to MCP clients before
 * anything is written. The document is served on loopback and changed between refreshes. The
 * generator and the contract target run through the copy's Nx; the refreshes run the executor in
 * this process (its own `nx sync` still runs in the copy), and the contract a refresh is compared
 * with is recorded from the library's files as the contract target records it: Nx's own start for
 * each of them cost about 1.5 s of CPU on a run that is CPU-bound.
 */
describe('a toolset generated from a document URL, refreshed as the upstream moves on', () => {
  const { out, err } = capturedConsole();
  let copy: string;
  let api: DocumentServer;
  const environment = process.env;
  // Nx runs asynchronously: the document is served from this process.
  const nx = async (...args: string[]) => {
    const run = await runNxAsync(copy, ...args);
    if (run.status !== 0) throw new Error(`nx ${args.join(' ')} exited with ${run.status}:\n${run.output}`);
    return run.output;
  };
  const lib = (file: string) => join(copy, 'libs/toolsets/pets', file);
  const read = (file: string) => readFileSync(lib(file), 'utf-8');
  const setVersion = (version: string) => writeFileSync(lib('package.json'), JSON.stringify({ ...JSON.parse(read('package.json')), version }, null, 2));

  /** The openapi-refresh target, as Nx runs it in the copy: its exit status and everything it printed. */
  const refresh = async (...flags: '--check'[]) => {
    out.length = 0;
    err.length = 0;
    const { success } = await openApiRefreshExecutor({ check: flags.includes('--check') }, executorContext('@toolsets/pets', 'libs/toolsets/pets', copy));
    return { status: success ? 0 : 1, output: [...out, ...err].join('\n') };
  };
  /** What `nx run @toolsets/pets:contract --update` records: the gated catalog of the library's document and curation, at its version. */
  const recordContract = async () => {
    const config = JSON.parse(read('openapi.config.json'));
    const generated = await generateToolset(config.name, JSON.parse(read('openapi.json')), config, config.source);
    const tools = gatedCatalogInChild(copy, generated.files, config.name).map((entry) => withRecordedMeta(entry));
    writeFileSync(lib('contract.json'), serializeSnapshot(snapshotOf(JSON.parse(read('package.json')).version, tools)));
  };

  beforeAll(async () => {
    copy = copyWorkspace('toolsets-refresh-');
    api = await startDocumentServer(petsDocument(PET));
    // The executor's nested nx sync runs in the copy, with none of this lane's Nx settings (its workspace data among them).
    process.env = { ...nxEnvironment(), PETS_SPEC_TOKEN: 'Bearer s3cret' };
  });
  afterAll(async () => {
    process.env = environment;
    await api?.close();
    rmSync(copy, { recursive: true, force: true });
  });

  it('records the URL and the header variable (never its value), then reports no change, a safe one, and refuses a breaking one until the version says so; a curation is classified, and an upstream rename or removal of what it curates stops the refresh with the entry and the fix', async () => {
    const url = `${api.origin}/private/openapi.json`;
    await nx('g', '@toolsets/workspace-plugin:openapi', 'pets', `--spec=${url}`, '--specHeader=authorization:PETS_SPEC_TOKEN', '--credentialHeader=x-pets-key', '--skipInstall', '--no-interactive');
    expect(JSON.parse(read('openapi.config.json'))).toMatchObject({ name: 'pets', source: url, sourceHeaders: { authorization: 'PETS_SPEC_TOKEN' } });
    expect(JSON.parse(read('openapi.json'))).toEqual(api.document);
    for (const file of ['openapi.config.json', 'openapi.json', 'src/generated/pets.toolset.ts']) expect(read(file)).not.toContain('s3cret');
    await nx('run', '@toolsets/pets:contract', '--outputStyle=static');

    // Unchanged upstream: nothing to do, nothing written.
    const written = statSync(lib('openapi.json')).mtimeMs;
    const same = await refresh();
    expect(same.status).toBe(0);
    expect(same.output).toContain('libs/toolsets/pets/openapi.json matches');
    expect(statSync(lib('openapi.json')).mtimeMs).toBe(written);

    // A field added to the answer: safe for clients. --check reports it and writes nothing; a refresh takes it.
    api.document = petsDocument({ ...PET, tag: { type: 'string' } });
    const checked = await refresh('--check');
    expect(checked.status).not.toBe(0);
    expect(checked.output).toMatch(/1 change to the catalog since contract\.json \(version 0\.1\.0\): 1 safe/);
    expect(checked.output).toContain('--check: nothing written.');
    expect(read('openapi.json')).not.toContain('"tag"');
    const added = await refresh();
    expect(added.status).toBe(0);
    expect(added.output).toContain('Wrote libs/toolsets/pets/openapi.json and regenerated its code (nx sync).');
    expect(JSON.parse(read('openapi.json'))).toEqual(api.document);
    expect(read('src/generated/dtos.ts')).toMatch(/\btag\?: string/);
    // As for a hand-written addition, the contract target records it at the version it needs.
    setVersion(added.output.match(/Set "version": "([^"]+)"/)![1]);
    await recordContract();

    // A field removed from the answer: breaking. Refused, nothing written, until the version is bumped.
    api.document = petsDocument({ id: { type: 'integer' }, tag: { type: 'string' } });
    const removed = await refresh();
    expect(removed.status).not.toBe(0);
    expect(removed.output).toMatch(/breaking/);
    expect(removed.output).toContain('Not refreshed, nothing written: the upstream made 1 breaking change for clients.');
    const petFields = () => Object.keys(JSON.parse(read('openapi.json')).components.schemas.Pet.properties);
    expect(petFields()).toEqual(['id', 'name', 'tag']);
    expect(JSON.parse(read('contract.json')).version).toBe('0.1.1');
    setVersion(removed.output.match(/Set "version": "([^"]+)"/)![1]);
    expect(JSON.parse(read('package.json')).version).toBe('0.2.0');
    expect((await refresh()).status).toBe(0);
    expect(petFields()).toEqual(['id', 'tag']);
    expect(read('src/generated/dtos.ts')).not.toMatch(/\bname!: string/);
    await recordContract();

    // Curated in openapi.config.json: the contract target classifies what the curation does to clients.
    const config = JSON.parse(read('openapi.config.json'));
    writeFileSync(lib('openapi.config.json'), JSON.stringify({ ...config, tools: { getPet: { name: 'find_pet', arguments: { id: { name: 'petId', description: 'The pet, by its number.' } }, fields: ['id'] } } }, null, 2));
    await nx('sync');
    expect(read('src/generated/pets.toolset.ts')).toContain("pathParams: { 'id': args.petId }");
    const curated = await runNxAsync(copy, 'run', '@toolsets/pets:contract', '--outputStyle=static', '--skip-nx-cache');
    expect(curated.status).not.toBe(0);
    // The tool's new name is a rename, paired through its operation; under it, the argument's rename is the old
    // argument gone and a new one required, and the projection drops 'tag' from the answer.
    expect(curated.output).toContain('4 changes since libs/toolsets/pets/contract.json (version 0.2.0): 4 breaking.');
    expect(curated.output).toMatch(/ {2}get_pet: tool renamed to 'find_pet' \(tool-renamed, breaking\)[^\n]*\n {2}find_pet \(was get_pet\): /);
    for (const rule of ['input /properties/id removed (input-property-removed, breaking)', 'input /properties/petId added (required) (input-required-property-added, breaking)', 'output /anyOf/0/properties/data/properties/tag removed (output-property-removed, breaking)']) {
      expect(curated.output).toContain(`find_pet (was get_pet): ${rule}`);
    }
    expect(curated.output).not.toMatch(/tool-(added|removed)|title-changed/);
    setVersion('0.3.0');
    await recordContract();

    // Upstream renames the curated parameter: the refresh stops at the entry, with the fix, and writes nothing.
    const renamed = structuredClone(api.document) as { paths: Record<string, { get: { parameters: { name: string }[] } }> };
    renamed.paths['/pets/{id}'].get.parameters[0].name = 'petNumber';
    renamed.paths['/pets/{petNumber}'] = renamed.paths['/pets/{id}'];
    delete renamed.paths['/pets/{id}'];
    api.document = renamed;
    const stale = await refresh();
    expect(stale.status).not.toBe(0);
    expect(stale.output).toContain(
      'openapi.config.json "tools"."getPet"."arguments"."id": the operation has no such argument (renamed or removed upstream?). Its arguments: petNumber. Rename the entry, or remove it.',
    );
    expect(read('openapi.json')).toContain('"/pets/{id}"');

    // Upstream removes the curated operation: the refresh names the entry instead of dropping the curation silently.
    api.document = { ...renamed, paths: {} };
    const gone = await refresh();
    expect(gone.status).not.toBe(0);
    expect(gone.output).toContain('"getPet": no operation of the document has this operationId or tool name (renamed or removed upstream?).');
    expect(read('openapi.json')).toContain('"/pets/{id}"');
  }, 600_000);
});
