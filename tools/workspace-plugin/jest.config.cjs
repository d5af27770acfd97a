// The plugin's own tests: generators, executors and the OpenAPI pipeline, in memory or in a temp
// folder. The end-to-end files run as their own targets so both cores stay busy:
// `e2e-workspace` (jest.e2e-workspace.config.cjs) and `e2e-adoption` (jest.e2e-adoption.config.cjs).
module.exports = {
  displayName: '@toolsets/workspace-plugin',
  preset: '../../jest.preset.js',
  rootDir: __dirname,
  roots: ['<rootDir>/test'],
  testPathIgnorePatterns: ['/node_modules/', '\\.e2e\\.spec\\.ts$'],
  // Generated toolsets compiled and served in memory: seconds each on a CI machine kept busy by the other targets.
  testTimeout: 120_000,
};
