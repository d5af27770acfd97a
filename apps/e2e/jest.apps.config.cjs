// The end-to-end suites that pack or start the most (the published app and its image, the demo app
// in Chromium, OAuth, replicas on Redis): a target of their own, beside `e2e:test`, so the two run
// side by side on the run's two cores instead of one after the other on one. Each target still runs
// its files one at a time (the publishable-app and container suites pack the same app's folder).
const base = require('./jest.config.cjs');

const APPS = ['publishable-app', 'container', 'catalog-page', 'oauth', 'tasks-replicas'];

module.exports = {
  ...base,
  displayName: 'e2e-apps',
  testPathIgnorePatterns: ['/node_modules/'],
  testMatch: APPS.map((name) => `<rootDir>/test/${name}.spec.ts`),
};
