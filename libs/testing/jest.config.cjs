module.exports = {
  displayName: '@toolsets/testing',
  preset: '../../jest.preset.js',
  rootDir: __dirname,
  roots: ['<rootDir>/test'],
};
