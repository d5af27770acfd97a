module.exports = {
  displayName: 'core',
  preset: '../../jest.preset.js',
  rootDir: __dirname,
  roots: ['<rootDir>/src', '<rootDir>/test'],
};
