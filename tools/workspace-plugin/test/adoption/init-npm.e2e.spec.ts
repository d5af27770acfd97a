import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { adoptionWorkspace, changedFiles } from '../support/adoption-workspace';

describe('the workspace plugin in a real create-nx-workspace --preset=npm workspace, as the README says', () => {
  const adoption = adoptionWorkspace('npm', { isolatedPlugins: false });
  beforeAll(adoption.setUp);
  afterAll(adoption.tearDown);

  it('when init cannot install, it puts back what it wrote; run again, every step passes', async () => {
    const workspace = adoption.createWorkspace();
    const [installPlugin, init] = adoption.steps();
    adoption.run(installPlugin, workspace);
    const before = changedFiles(workspace);

    // The registry unreachable, and no cache to fall back on: npm install fails after init wrote its files.
    const offline = { npm_config_registry: 'http://127.0.0.1:9/', npm_config_cache: join(adoption.root(), 'empty-npm-cache'), npm_config_fetch_retries: '0' };
    let failure: (Error & { output?: string }) | undefined;
    try {
      adoption.run(init, workspace, offline);
    } catch (error) {
      failure = error as Error & { output?: string };
    }
    expect(failure?.output).toContain('init stopped: installing the packages it added failed');
    const undone = /It undid what it wrote, so the workspace is as it was: ([^\n]*?)\. Fix/.exec(failure?.output ?? '')?.[1].split(', ');
    expect(undone).toEqual(expect.arrayContaining(['tsconfig.base.json', 'jest.preset.js', 'nx.json', 'package.json', 'tools/build/build-project.cjs']));
    expect(changedFiles(workspace)).toBe(before);
    expect(existsSync(join(workspace, 'tools/build'))).toBe(false);

    await adoption.followReadme(workspace, 1, 'build');
  }, 900_000);
});
