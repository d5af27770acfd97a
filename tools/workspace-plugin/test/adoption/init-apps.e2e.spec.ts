import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { adoptionWorkspace, typescriptIn } from '../support/adoption-workspace';

describe('the workspace plugin in a real create-nx-workspace --preset=apps workspace, as the README says', () => {
  const adoption = adoptionWorkspace('apps', { isolatedPlugins: false });
  beforeAll(adoption.setUp);
  afterAll(adoption.tearDown);

  it('no TypeScript yet: every step passes with the TypeScript init installs', async () => {
    const workspace = adoption.createWorkspace();
    expect(existsSync(join(workspace, 'node_modules/typescript'))).toBe(false);
    await adoption.followReadme(workspace, 0, 'build');
    expect(typescriptIn(workspace)).toMatch(/^5\.9\./);
  }, 900_000);
});
