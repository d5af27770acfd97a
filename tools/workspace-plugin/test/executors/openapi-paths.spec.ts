import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import openApiPathsExecutor from '../../src/executors/openapi-paths/executor';
import { generateToolset } from '../../src/openapi/generate-toolset';
import type { ToolCuration } from '../../src/openapi/openapi-config';
import { capturedConsole, executorContext } from '../support/executor-context';

const petstore = () => JSON.parse(readFileSync(join(require.resolve('@readme/oas-examples/package.json'), '..', '3.0/json/petstore.json'), 'utf-8'));

/** The printed outline read back: per `tools` key, its argument names and its answer paths. */
function readOutline(lines: readonly string[]): Map<string, { arguments: string[]; fields: string[] }> {
  const operations = new Map<string, { arguments: string[]; fields: string[] }>();
  let current: { arguments: string[]; fields: string[] } | undefined;
  for (const line of lines.join('\n').split('\n')) {
    const head = /^"([^"]+)"/.exec(line);
    if (head) operations.set(head[1]!, (current = { arguments: [], fields: [] }));
    else if (line.startsWith('  arguments: ') && current && !line.endsWith('none')) current.arguments = line.slice('  arguments: '.length).split(', ').map((entry) => entry.split(/\??: /)[0]!);
    else if (/^ {4}\S/.test(line) && current) current.fields.push(line.trim().split(': ')[0]!);
  }
  return operations;
}

describe('the openapi-paths target', () => {
  const { out, err } = capturedConsole();
  let workspace: string;
  const run = (tool?: string) => openApiPathsExecutor(tool === undefined ? {} : { tool }, executorContext('@toolsets/petstore', 'libs/toolsets/petstore', workspace));

  beforeAll(() => {
    workspace = mkdtempSync(join(tmpdir(), 'openapi-paths-'));
    const library = join(workspace, 'libs/toolsets/petstore');
    mkdirSync(library, { recursive: true });
    writeFileSync(join(library, 'openapi.json'), JSON.stringify(petstore()));
    writeFileSync(join(library, 'openapi.config.json'), JSON.stringify({ name: 'petstore', credentialHeader: 'x-petstore-key', tools: { getPetById: { name: 'find_pet' } } }));
  });
  afterAll(() => rmSync(workspace, { recursive: true, force: true }));

  it("prints an operation's key, tool, arguments and every answer path, by the names the config takes", async () => {
    await expect(run('find_pet')).resolves.toEqual({ success: true });
    const printed = out.join('\n');
    expect(printed).toContain('"getPetById" (tool find_pet): GET /pet/{petId}');
    expect(printed).toContain('  arguments: petId: integer');
    for (const line of ['    id: integer', '    category.name: string', '    photoUrls: array of string', '    tags.name: string', '    status: "available" | "pending" | "sold"']) {
      expect(printed).toContain(`${line}\n`);
    }
    // The credential parameter (api_key, the document's apiKey scheme) is no argument.
    await expect(run('deletePet')).resolves.toEqual({ success: true });
    expect(out.join('\n')).toContain('  arguments: petId: integer');
  });

  it('prints only what the config accepts: every argument as an arguments key, every path as a fields path', async () => {
    await expect(run()).resolves.toEqual({ success: true });
    const outline = readOutline(out);
    expect(outline.size).toBe(20);
    const tools: Record<string, ToolCuration> = {};
    for (const [key, { arguments: names, fields }] of outline) {
      tools[key] = {
        ...(names.length > 0 && { arguments: Object.fromEntries(names.map((name) => [name, { description: `The ${name}.` }])) }),
        ...(fields.length > 0 && { fields }),
      };
    }
    expect(Object.values(tools).filter((entry) => entry.fields).length).toBeGreaterThan(5);
    await expect(generateToolset('petstore', petstore(), { credentialHeader: 'x-petstore-key', tools })).resolves.toBeDefined();
  });

  it('says so when --tool matches no operation', async () => {
    await expect(run('no_such_*')).resolves.toEqual({ success: false });
    expect(err.join('\n')).toContain('No included operation of libs/toolsets/petstore/openapi.json matches --tool=no_such_*');
  });
});
