module.exports = {
  displayName: 'core',
  preset: '../../jest.preset.js',
  rootDir: __dirname,
  roots: ['<rootDir>/src', '<rootDir>/test'],
  // Two files at a time: most of core's test time is servers and clients waiting on each other over
  // loopback, and one worker left the second core idle for minutes (Jest's default on 2 cores is 1).
  maxWorkers: 2,
};
