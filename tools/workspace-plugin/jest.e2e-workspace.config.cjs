// In throwaway copies of this workspace: generators, contract evolution, OpenAPI refresh and the Nx
// cache, each running the copy's own Nx. Two files at a time: most of their time is child processes.
const base = require('./jest.config.cjs');

module.exports = {
  ...base,
  displayName: '@toolsets/workspace-plugin:e2e-workspace',
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/adoption/'],
  testMatch: ['<rootDir>/test/*.e2e.spec.ts'],
  maxWorkers: 2,
  testTimeout: 600_000,
};
