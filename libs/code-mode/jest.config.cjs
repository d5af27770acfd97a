module.exports = {
  displayName: '@toolsets/code-mode',
  preset: '../../jest.preset.js',
  rootDir: __dirname,
  roots: ['<rootDir>/test'],
};
