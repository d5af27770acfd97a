module.exports = {
  displayName: '@toolsets/reports',
  preset: '../../../jest.preset.js',
  rootDir: __dirname,
  roots: ['<rootDir>/src', '<rootDir>/test'],
};
