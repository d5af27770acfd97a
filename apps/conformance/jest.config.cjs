// The official conformance suite against the built app, as a child process over HTTP.
module.exports = {
  displayName: 'conformance',
  preset: '../../jest.preset.js',
  rootDir: __dirname,
  roots: ['<rootDir>/test'],
  testTimeout: 300_000,
};
