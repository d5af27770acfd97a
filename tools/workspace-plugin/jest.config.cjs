module.exports = {
  displayName: '@toolsets/workspace-plugin',
  preset: '../../jest.preset.js',
  rootDir: __dirname,
  roots: ['<rootDir>/test'],
  // The end-to-end generator test builds and tests a copy of the workspace.
  testTimeout: 600_000,
};
