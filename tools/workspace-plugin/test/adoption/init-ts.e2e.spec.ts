import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { adoptionWorkspace, typescriptIn } from '../support/adoption-workspace';

describe('the workspace plugin in a real create-nx-workspace --preset=ts workspace, as the README says', () => {
  const adoption = adoptionWorkspace('ts');
  beforeAll(adoption.setUp);
  afterAll(adoption.tearDown);

  it('TypeScript 6, composite base config: every step passes and the app serves', async () => {
    const workspace = adoption.createWorkspace();
    expect(typescriptIn(workspace)).toMatch(/^6\./);
    await adoption.followReadme(workspace);
    // The workspace keeps its TypeScript, and init added no baseUrl (TypeScript 6 refuses it).
    expect(typescriptIn(workspace)).toMatch(/^6\./);
    expect(JSON.parse(readFileSync(join(workspace, 'tsconfig.base.json'), 'utf-8')).compilerOptions).not.toHaveProperty('baseUrl');
  }, 900_000);
});
