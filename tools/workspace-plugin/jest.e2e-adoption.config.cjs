// README's "In an existing Nx workspace" in real create-nx-workspace workspaces, one preset a file,
// all three at once: most of their time is npm installs and child processes.
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
