module.exports = {
  displayName: '@toolsets/mcp-upstream',
  preset: '../../jest.preset.js',
  rootDir: __dirname,
  roots: ['<rootDir>/test'],
};
