module.exports = {
  displayName: '@toolsets/notes',
  preset: '../../../jest.preset.js',
  rootDir: __dirname,
  roots: ['<rootDir>/src', '<rootDir>/test'],
};
