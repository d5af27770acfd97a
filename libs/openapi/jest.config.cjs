module.exports = {
  displayName: '@toolsets/openapi',
  preset: '../../jest.preset.js',
  rootDir: __dirname,
  roots: ['<rootDir>/test'],
};
