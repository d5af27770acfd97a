// README's "Using toolsets in your own repository" from the packs made once per run
// (`nx run @toolsets/workspace-plugin:adoption-packs`): its own target, so it runs beside the other
// end-to-end tests instead of after them.
const base = require('./jest.config.cjs');

module.exports = {
  ...base,
  displayName: 'e2e-packages',
  testPathIgnorePatterns: ['/node_modules/'],
  testMatch: ['<rootDir>/test/packages.spec.ts'],
};
