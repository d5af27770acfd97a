// The timing-sensitive end-to-end suites: drain and rolling restart (calls lost), stall and memory
// bounds. `npm test` runs them beside the run-many of every other target, which it runs at low
// priority (tools/test-run/test-all.sh), so these suites get the CPU first.
const base = require('./jest.config.cjs');

module.exports = {
  ...base,
  // One at a time: these suites measure what a server does under load of their own making.
  maxWorkers: 1,
  displayName: 'e2e-timing',
  roots: ['<rootDir>/test/timing'],
  testPathIgnorePatterns: ['/node_modules/'],
};
