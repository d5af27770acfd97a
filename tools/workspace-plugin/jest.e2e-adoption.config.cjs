// README's "In an existing Nx workspace" in real create-nx-workspace workspaces, one preset a file,
// two at a time: most of their time is npm installs and child processes, all CPU-bound on 2 cores.
const base = require('./jest.config.cjs');

module.exports = {
  ...base,
  displayName: '@toolsets/workspace-plugin:e2e-adoption',
  roots: ['<rootDir>/test/adoption'],
  testPathIgnorePatterns: ['/node_modules/'],
  testMatch: ['**/*.e2e.spec.ts'],
  maxWorkers: 2,
  testTimeout: 900_000,
};
