module.exports = {
  displayName: '@toolsets/everything',
  preset: '../../../jest.preset.js',
  rootDir: __dirname,
  roots: ['<rootDir>/src', '<rootDir>/test'],
};
