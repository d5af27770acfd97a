// Shared Jest settings for every project: swc keeps decorator metadata (esbuild would drop it)
// and also transforms jose and the tasks extension's client, which ship ES modules only (TypeBox,
// ES modules only too, comes bundled: tools/jest/bundled-packages.cjs; swc transforms it when not).
const path = require('node:path');
const { compilerOptions } = require('./tsconfig.base.json');

// tsconfig paths (`@toolsets/core` -> libs/core/src/index.ts) so tests run against source, not builds.
const moduleNameMapper = Object.fromEntries(
  Object.entries(compilerOptions.paths).map(([alias, [target]]) => [`^${alias}$`, path.join(__dirname, target)]),
);

// TypeBox, class-validator and zod, each bundled once into a few CommonJS files (tools/jest/bundled-packages.cjs).
const bundledPackages = require('./tools/jest/bundled-packages.cjs');
Object.assign(moduleNameMapper, bundledPackages.bundledModuleMapper());
// The same bundles for the apps and tools the tests start as child processes (tools/jest/bundled-packages-preload.cjs).
bundledPackages.preloadBundledPackages();

// The tasks extension's client exports ES modules under the `import` condition only; Jest resolves with `require`.
moduleNameMapper['^@modelcontextprotocol/ext-tasks/(.*)$'] = path.join(__dirname, 'node_modules/@modelcontextprotocol/ext-tasks/dist/$1/index.js');

const swcOptions = { ...require('./tools/build/swc-options.cjs'), sourceMaps: 'inline' };

module.exports = {
  testEnvironment: 'node',
  transform: { '^.+\\.(t|j|mj)s$': ['@swc/jest', swcOptions] },
  transformIgnorePatterns: ['node_modules/(?!(typebox|jose|@modelcontextprotocol/ext-tasks)/)'],
  moduleFileExtensions: ['ts', 'js', 'mjs', 'cjs', 'json'],
  moduleNameMapper,
  // Jest's own module loader, each module's compiled code shared between a worker's test files (tools/jest/code-cache-runtime.cjs).
  runtime: path.join(__dirname, 'tools/jest/code-cache-runtime.cjs'),
  testMatch: ['**/?(*.)+(spec|test).ts'],
  // A bound on a test or hook that hangs, not a measure of speed: Jest's 5 s default failed healthy
  // suites on a busy machine (a server's close waiting out its clients' idle connections). Tests
  // that wait on an event wait for the event itself; a longer bound is given where a test needs it.
  testTimeout: 60_000,
  reporters: ['default', path.join(__dirname, 'tools/jest/summary-reporter.cjs')],
  // `npm test` points TMPDIR at a scratch folder of its own (tools/test-run/scratch-dir.sh) and keeps
  // Jest's transform cache where it was, so a warm one serves the next run too.
  ...(process.env.TOOLSETS_JEST_CACHE_DIRECTORY ? { cacheDirectory: process.env.TOOLSETS_JEST_CACHE_DIRECTORY } : {}),
};
