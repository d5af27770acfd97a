module.exports = {
  displayName: '@toolsets/credential-demo',
  preset: '../../../jest.preset.js',
  rootDir: __dirname,
  roots: ['<rootDir>/src', '<rootDir>/test'],
};
