import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { copyWorkspace, nxIn } from './support/workspace-copy';

/**
 * A generator writes a path mapping into tsconfig.base.json, and the `npm install` after it links
 * the new package in package-lock.json. Neither may be an input of projects the generator did not
 * touch, or every run of it costs a full rebuild of core (22–28 s) and of everything after it.
 */
describe('running a generator in the workspace', () => {
  let copy: string;
  const nx = (...args: string[]) => nxIn(copy, ...args);
  const TASKS = ['run-many', '-t', 'build', 'typecheck', '-p', '@toolsets/core', '@toolsets/hello', '--outputStyle=static'];

  beforeAll(() => {
    copy = copyWorkspace('toolsets-cache-');
  });
  afterAll(() => rmSync(copy, { recursive: true, force: true }));

  it('keeps the cached results of the projects it did not touch', () => {
    const first = nx(...TASKS);
    expect(first).toContain('Successfully ran targets build, typecheck for 2 projects');

    nx('g', '@toolsets/workspace-plugin:toolset', 'ledger', '--description=Accounts.', '--skipInstall', '--no-interactive');
    expect(readFileSync(join(copy, 'tsconfig.base.json'), 'utf-8')).toContain('libs/toolsets/ledger/src/index.ts');
    // What `npm install` writes for the new workspace package (not run: the copy shares node_modules).
    const lockfile = JSON.parse(readFileSync(join(copy, 'package-lock.json'), 'utf-8'));
    lockfile.packages['libs/toolsets/ledger'] = { name: '@toolsets/ledger', version: '0.1.0' };
    lockfile.packages['node_modules/@toolsets/ledger'] = { resolved: 'libs/toolsets/ledger', link: true };
    writeFileSync(join(copy, 'package-lock.json'), `${JSON.stringify(lockfile, null, 2)}\n`);

    const again = nx(...TASKS);
    expect(again).toMatch(/Nx read the output from the cache instead of running the command for (\d+) out of \1 tasks/);
  }, 240_000);
});
