import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import openApiMeasureExecutor from '../../src/executors/openapi-measure/executor';
import { capturedConsole, executorContext, workspaceRoot } from '../support/executor-context';

const petstore = () => JSON.parse(readFileSync(join(require.resolve('@readme/oas-examples/package.json'), '..', '3.0/json/petstore.json'), 'utf-8'));

/** The report's row for a measure: its as-generated, curated and ratio cells. */
function row(lines: readonly string[], measure: string): string[] {
  const line = lines.join('\n').split('\n').find((candidate) => candidate.startsWith(measure));
  if (!line) throw new Error(`no row "${measure}" in:\n${lines.join('\n')}`);
  return line.slice(measure.length).trim().split(/\s{2,}/);
}

describe('the openapi-measure target', () => {
  const { out, err } = capturedConsole();
  let library: string;
  beforeAll(() => {
    // A library in a folder of its own, under this workspace (the generated code runs on its packages)
    // and in its ignored tmp/, so no other test's copy of the workspace or lint ever sees it.
    mkdirSync(join(workspaceRoot, 'tmp'), { recursive: true });
    library = mkdtempSync(join(workspaceRoot, 'tmp/measure-'));
    writeFileSync(join(library, 'openapi.json'), JSON.stringify(petstore()));
    writeFileSync(
      join(library, 'openapi.config.json'),
      JSON.stringify({
        name: 'petstore',
        credentialHeader: 'x-petstore-key',
        include: ['findPetsByStatus', 'getPetById', 'getInventory', 'getOrderById', 'getUserByName'],
        tools: { findPetsByStatus: { name: 'find_pets', fields: ['id', 'name', 'status'] }, getPetById: { fields: ['name'] }, getUserByName: { exclude: true } },
      }),
    );
  });
  afterAll(() => rmSync(library, { recursive: true, force: true }));
  const run = (mock?: string) => openApiMeasureExecutor(mock === undefined ? {} : { mock }, executorContext('@toolsets/petstore', library.slice(workspaceRoot.length + 1)));

  it('serves the library as generated and as curated against a sample of its document, and prints what the curation did', async () => {
    await expect(run()).resolves.toEqual({ success: true });
    expect(err).toEqual([]);
    expect(row(out, 'tools')).toEqual(['4', '4']);
    expect(row(out, 'calls with a typed answer')).toEqual(['4/4', '4/4']);
    const [plainList, curatedList, listRatio] = row(out, 'tools/list bytes');
    expect(Number(curatedList!.replace(/,/g, ''))).toBeLessThan(Number(plainList!.replace(/,/g, '')));
    expect(listRatio).toMatch(/^0\.\d\d×$/);
    // Two of the four answers are cut to a few fields: the median answer shrinks.
    const [plainMedian, curatedMedian] = row(out, 'median answer bytes (4 typed both ways)');
    expect(Number(curatedMedian!.replace(/,/g, ''))).toBeLessThan(Number(plainMedian!.replace(/,/g, '')));
  });

  it('calls the mock it is given instead, and lists the calls that failed', async () => {
    await expect(run('http://127.0.0.1:9')).resolves.toEqual({ success: true });
    expect(row(out, 'calls with a typed answer')).toEqual(['0/4', '0/4']);
    expect(out.join('\n')).toContain('Calls that failed:');
    expect(out.join('\n')).toMatch(/curated find_pets: /);
    await expect(run('not a url')).resolves.toEqual({ success: false });
    expect(err.join('\n')).toContain('--mock=not a url is not an http(s) URL');
  });
});
