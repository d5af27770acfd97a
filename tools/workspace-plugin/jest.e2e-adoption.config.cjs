// README's "In an existing Nx workspace" in real create-nx-workspace workspaces, one preset a file,
// all three at once: the long lane schedules this target last, so it runs alone at the end of the
// run, where two at a time left one core idle for the last preset (about 40 s on a clean clone;
// earlier, beside other targets, three at a time and two measured the same: docs/contributing.md).
const base = require('./jest.config.cjs');

module.exports = {
  ...base,
  displayName: '@toolsets/workspace-plugin:e2e-adoption',
  roots: ['<rootDir>/test/adoption'],
  testPathIgnorePatterns: ['/node_modules/'],
  testMatch: ['**/*.e2e.spec.ts'],
  maxWorkers: 3,
  testTimeout: 900_000,
};
