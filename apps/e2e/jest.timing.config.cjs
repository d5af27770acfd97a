// The timing-sensitive end-to-end suites: drain and rolling restart (calls lost), stall and memory
// bounds. `npm test` runs them alone, after the parallel targets, so no other suite shares the CPU.
const base = require('./jest.config.cjs');

module.exports = {
  ...base,
  displayName: 'e2e-timing',
  roots: ['<rootDir>/test/timing'],
  testPathIgnorePatterns: ['/node_modules/'],
};
