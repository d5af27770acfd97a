// End-to-end: the built apps run as child processes; clients talk to them over HTTP and stdio.
module.exports = {
  displayName: 'e2e',
  preset: '../../jest.preset.js',
  rootDir: __dirname,
  roots: ['<rootDir>/test'],
  testTimeout: 60_000,
  // The suites start servers as child processes; one at a time keeps them off each other's CPU.
  maxWorkers: 1,
};
