import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORE_DEPENDENCIES, CORE_METRICS_PEERS, CORE_PEER_DEPENDENCIES, CORE_REDIS_PEERS } from '../src/utils/core-packages';

describe("the generators' list of @toolsets/core's packages", () => {
  const core = JSON.parse(readFileSync(join(__dirname, '../../../libs/core/package.json'), 'utf-8')) as { dependencies: Record<string, string>; peerDependencies: Record<string, string>; peerDependenciesMeta: Record<string, { optional?: boolean }> };

  it("names exactly core's dependencies and peer dependencies, so a publishable app installs what its bundled core needs", () => {
    expect([...CORE_DEPENDENCIES].sort()).toEqual(Object.keys(core.dependencies).sort());
    expect([...CORE_PEER_DEPENDENCIES, ...CORE_METRICS_PEERS, ...CORE_REDIS_PEERS].sort()).toEqual(Object.keys(core.peerDependencies).sort());
    // The metrics SDK and the Redis client and queue are what core leaves optional, and nothing else.
    expect(Object.keys(core.peerDependenciesMeta).filter((name) => core.peerDependenciesMeta[name]?.optional).sort()).toEqual([...CORE_METRICS_PEERS, ...CORE_REDIS_PEERS].sort());
  });
});
