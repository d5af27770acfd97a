#!/usr/bin/env node
// The typecheck targets and the libraries' declaration builds: each tsconfig given, in turn, through
// the native TypeScript 7 compiler (this folder's own `typescript`, kept out of the root's
// node_modules/.bin). It checks the same sources 3–4 times faster than TypeScript 5.9 (hello's
// library, which pulls in core's source through its path mapping: 12 CPU-s → 3; core's
// declarations: 10 CPU-s → 3, the same files but for quote style). Neither job emits JavaScript, so
// TypeScript 7 not emitting decorator metadata does not matter: the JavaScript comes from swc
// (tools/build), and packages.spec.ts checks the published declarations with TypeScript 5.9, 6.0
// and 7.0. Usage: tsc.cjs <tsconfig>...
const { spawnSync } = require('node:child_process');
const { createHash } = require('node:crypto');
const { existsSync, mkdirSync, readFileSync, writeFileSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');

// This folder's own TypeScript 7 (the workspace root keeps 5.9 for everything else).
const typescript = path.dirname(require.resolve('typescript/package.json', { paths: [__dirname] }));
const version = require(path.join(typescript, 'package.json')).version;
if (!version.startsWith('7.')) {
  console.error(`tools/typecheck needs its own TypeScript 7, and found ${version} at ${typescript}: run npm ci (or npm install) at the workspace root.`);
  process.exit(2);
}
const tsc = path.join(typescript, 'bin/tsc');
const configs = process.argv.slice(2);
if (configs.length === 0) {
  console.error('Usage: tsc.cjs <tsconfig>...');
  process.exit(2);
}
const root = path.join(__dirname, '../..');
// TypeScript 7 checks with several checkers in parallel, each building its own view of the global
// types: on 2 cores, beside the other targets Nx runs at the same time, that is work done twice for
// no shorter run. One thread there: about a quarter less CPU for the same result (workspace-plugin's
// spec config, three runs each: 3.1–3.5 CPU-s → 2.3–2.7, docs/contributing.md).
const threads = os.availableParallelism() <= 2 ? ['--singleThreaded'] : [];
for (const config of configs) {
  const run = spawnSync(process.execPath, [tsc, '-p', againstBuiltLibraries(config), '--pretty', 'false', ...threads], { stdio: 'inherit', cwd: root });
  if (run.status !== 0) process.exit(run.status ?? 1);
}

/**
 * `config` with every other published library (`@toolsets/core`, `testing`, `openapi`,
 * `code-mode`) read from its built declarations (`dist/index.d.ts`) instead of its source: a
 * library's source is checked once, by its own target, not again by each project that imports it
 * (the 28 configs: 88 CPU-s → about 25). The project's own library stays source, so its tests and
 * the declarations of others agree on its types. A library not built yet is read from source.
 * Nx builds the dependencies first (`typecheck` depends on `^build`); `npm test` builds everything first.
 */
function againstBuiltLibraries(config) {
  const absolute = path.resolve(root, config);
  const projectRoot = path.relative(root, path.dirname(absolute));
  const base = JSON.parse(readFileSync(path.join(root, 'tsconfig.base.json'), 'utf8'));
  const paths = {};
  for (const [alias, [source]] of Object.entries(base.compilerOptions.paths)) {
    // `libs/core/src/index.ts` → `libs/core/dist/index.d.ts`; a subpath export the same way
    // (`libs/core/src/helpers/ts-literal.ts` → `libs/core/dist/helpers/ts-literal.d.ts`): read from
    // source, a file of another library would be compiled here, and its declarations written beside it.
    const [library, inside] = path.normalize(source).split(/[/\\]src[/\\]/);
    const built = path.join(root, library, 'dist', inside.replace(/\.ts$/, '.d.ts'));
    const own = projectRoot === library || projectRoot.startsWith(library + path.sep);
    paths[alias] = [!own && existsSync(built) ? built : path.join(root, source)];
  }
  // Inside the workspace, so TypeScript finds `@types` from it as from the original.
  const folder = path.join(root, 'node_modules/.cache/toolsets-typecheck');
  mkdirSync(folder, { recursive: true });
  const derived = path.join(folder, `${createHash('sha256').update(absolute).digest('hex').slice(0, 12)}.json`);
  writeFileSync(derived, JSON.stringify({ extends: absolute, compilerOptions: { paths } }, null, 2));
  return derived;
}
