import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORE_DEPENDENCIES, CORE_PEER_DEPENDENCIES } from '../src/utils/core-packages';

describe("the generators' list of @toolsets/core's packages", () => {
  const core = JSON.parse(readFileSync(join(__dirname, '../../../libs/core/package.json'), 'utf-8')) as { dependencies: Record<string, string>; peerDependencies: Record<string, string> };

  it("names exactly core's dependencies and peer dependencies, so a publishable app installs what its bundled core needs", () => {
    expect([...CORE_DEPENDENCIES].sort()).toEqual(Object.keys(core.dependencies).sort());
    expect([...CORE_PEER_DEPENDENCIES].sort()).toEqual(Object.keys(core.peerDependencies).sort());
  });
});
