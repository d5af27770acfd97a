// End-to-end: the built apps run as child processes; clients talk to them over HTTP and stdio.
module.exports = {
  displayName: 'e2e',
  preset: '../../jest.preset.js',
  rootDir: __dirname,
  roots: ['<rootDir>/test'],
  testTimeout: 60_000,
  // Two suites at a time: they start servers as child processes, and in CI this lane finishes last,
  // alone, with the second core otherwise idle. Each suite owns its ports, folders and packs.
  maxWorkers: 2,
  // Timing-sensitive suites (drain, rolling restart, stall and memory bounds) run on their own, beside
  // the other targets at a higher priority: `nx run e2e:test-timing` (jest.timing.config.cjs). The packages
  // test is its own target, beside this one: `nx run e2e:test-packages` (jest.packages.config.cjs).
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/timing/', '<rootDir>/test/packages\\.spec\\.ts$'],
};
