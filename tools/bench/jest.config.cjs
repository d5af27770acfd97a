module.exports = {
  displayName: 'bench',
  preset: '../../jest.preset.js',
  rootDir: __dirname,
  roots: ['<rootDir>/test'],
  testTimeout: 60_000,
};
