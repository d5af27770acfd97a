import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { minVersion, satisfies } from 'semver';
import { workspaceRoot } from './support/server-process';

const read = (file: string) => JSON.parse(readFileSync(join(workspaceRoot, file), 'utf-8'));
const root = read('package.json') as { engines: { node: string } };
const PUBLISHED = ['libs/core', 'libs/testing', 'libs/openapi', 'tools/workspace-plugin', 'apps/hello-server', 'apps/credential-demo-server'];

/** Node versions the declared range covers, beside its floor: the lines people run (20, 22, 24). */
const SAMPLES = ['20.20.2', '22.13.0', '22.23.0', '24.0.0'];

/**
 * `^20.19.0 || >=22.13.0` is the documented range. npm prints EBADENGINE for every installed package whose own
 * `engines` leave out the running Node, so the declared range, the README and every package in the
 * lockfile must agree, or `npm ci` warns on a supported version.
 */
describe('the supported Node versions', () => {
  const floor = minVersion(root.engines.node)!.version;

  it('are the same in the workspace, every published package and the README', () => {
    expect(floor).toBe('20.19.0');
    for (const dir of PUBLISHED) expect([dir, read(`${dir}/package.json`).engines]).toEqual([dir, root.engines]);
    for (const version of SAMPLES) expect([version, satisfies(version, root.engines.node)]).toEqual([version, true]);
    // What the app generator writes into new apps.
    expect(readFileSync(join(workspaceRoot, 'tools/workspace-plugin/src/utils/core-packages.ts'), 'utf-8')).toContain(`SUPPORTED_NODE = '${root.engines.node}'`);
    expect(readFileSync(join(workspaceRoot, 'README.md'), 'utf-8')).toContain(`Node.js 20.19 or newer on the 20 line, or 22.13 or newer (\`${root.engines.node}\`)`);
  });

  it('are accepted by every package npm installs here, so npm ci prints no EBADENGINE', () => {
    const lockfile = read('package-lock.json') as { packages: Record<string, { engines?: { node?: string } | string[] }> };
    const refusals: string[] = [];
    for (const [path, entry] of Object.entries(lockfile.packages)) {
      const range = !Array.isArray(entry.engines) ? entry.engines?.node : undefined;
      if (!path || !range) continue;
      for (const version of [floor, ...SAMPLES]) if (!satisfies(version, range)) refusals.push(`${path} wants node ${range}, not ${version}`);
    }
    expect(refusals).toEqual([]);
  });
});
