module.exports = {
  displayName: '@toolsets/hello',
  preset: '../../../jest.preset.js',
  rootDir: __dirname,
  roots: ['<rootDir>/src', '<rootDir>/test'],
};
