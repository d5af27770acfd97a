// Jest loads every module of every test file anew (test files share no modules), and a test file
// that loads @toolsets/core loaded about 1,500 modules, 1,180 of them from five packages: TypeBox
// (683 small ES modules, each also transformed to CommonJS by swc), class-validator with validator
// and libphonenumber-js (321), zod (96, through the MCP SDK), OpenTelemetry's API (44) and tsyringe
// (34). Here each of those is bundled once
// (rolldown, from the package's own files) into a few CommonJS files, one entry per subpath the code
// imports with chunks shared between them, so `typebox` and `typebox/compile` share one copy of
// TypeBox's registries as they do in Node; the Jest preset maps each subpath to its entry. Node
// loads the packages themselves; only Jest's loading changes. See docs/contributing.md.
const { createHash } = require('node:crypto');
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const workspaceRoot = path.resolve(__dirname, '../..');

/** What is bundled: each package and the subpaths imported from it (`.` for the package itself). */
const BUNDLED = {
  // ES modules only: every subpath its package.json exports, read from the `import` condition.
  typebox: { subpaths: 'exported', preload: true },
  // CommonJS, with validator and libphonenumber-js inside the bundle.
  'class-validator': { subpaths: ['.'], preload: true },
  // CommonJS; the SDK requires `zod/v4`, tests import `zod`, and both are zod 4's classic API.
  zod: { subpaths: ['.', './v4', './v4/core'] },
  // CommonJS, a few dozen modules each, loaded with core.
  tsyringe: { subpaths: ['.'] },
  '@opentelemetry/api': { subpaths: ['.'] },
};

const entryName = (subpath) => (subpath === '.' ? 'index' : subpath.slice(2).replace(/\//g, '__'));

/** `{ subpath, file }` for each entry of a package: the file Node would load for it. */
function entries(pkg, { subpaths }) {
  const root = path.join(workspaceRoot, 'node_modules', pkg);
  if (subpaths === 'exported') {
    const { exports } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf-8'));
    return Object.entries(exports).map(([subpath, target]) => ({ subpath, file: path.join(root, typeof target === 'string' ? target : target.import ?? target.default) }));
  }
  return subpaths.map((subpath) => ({ subpath, file: require.resolve(subpath === '.' ? pkg : `${pkg}/${subpath.slice(2)}`, { paths: [workspaceRoot] }) }));
}

/**
 * Where the bundles are: under node_modules/.cache (which `npm ci` empties), named by the lockfile
 * and this file, so a changed dependency or a changed list is bundled anew.
 */
function bundleDir() {
  const hash = createHash('sha256').update(fs.readFileSync(__filename)).update(fs.readFileSync(path.join(workspaceRoot, 'package-lock.json'))).digest('hex').slice(0, 16);
  return path.join(workspaceRoot, 'node_modules/.cache/toolsets-jest', hash);
}

/**
 * Jest moduleNameMapper entries for every bundled subpath (bundling first if it is not done yet),
 * or none when the bundles cannot be made or TOOLSETS_JEST_UNBUNDLED=1: Jest then loads the
 * packages module by module, as before.
 */
function bundledModuleMapper() {
  // For comparing, or for reading a stack trace through the packages' own files.
  if (process.env.TOOLSETS_JEST_UNBUNDLED === '1') return {};
  const dir = bundleDir();
  if (!fs.existsSync(path.join(dir, 'done'))) {
    try {
      execFileSync(process.execPath, [__filename, dir], { stdio: 'pipe' });
    } catch (error) {
      process.stderr.write(`Packages were not bundled for Jest (${String(error.stderr || error.message).trim().split('\n')[0]}); Jest loads their modules one by one.\n`);
      return {};
    }
  }
  const mapper = {};
  for (const [pkg, spec] of Object.entries(BUNDLED)) {
    for (const { subpath } of entries(pkg, spec)) {
      const escaped = (subpath === '.' ? pkg : `${pkg}/${subpath.slice(2)}`).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
      mapper[`^${escaped}$`] = path.join(dir, pkg, `${entryName(subpath)}.cjs`);
    }
  }
  return mapper;
}

/** Bundles into a fresh folder beside `dir`, then renames it into place: Jest processes starting together never read half a bundle. */
async function bundle(dir) {
  const { build } = await import('rolldown');
  const partial = `${dir}.partial-${process.pid}`;
  fs.rmSync(partial, { recursive: true, force: true });
  for (const [pkg, spec] of Object.entries(BUNDLED)) {
    await build({
      input: Object.fromEntries(entries(pkg, spec).map(({ subpath, file }) => [entryName(subpath), file])),
      platform: 'node',
      output: { dir: path.join(partial, pkg), format: 'cjs', exports: 'named', entryFileNames: '[name].cjs', chunkFileNames: '[name]-[hash].cjs' },
      logLevel: 'warn',
    });
  }
  // For the processes the tests start (bundled-packages-preload.cjs): the file Node resolves → its bundled entry.
  const redirects = {};
  for (const [pkg, spec] of Object.entries(BUNDLED)) {
    if (!spec.preload) continue;
    for (const { subpath, file } of entries(pkg, spec)) redirects[file] = path.join(dir, pkg, `${entryName(subpath)}.cjs`);
  }
  fs.writeFileSync(path.join(partial, 'redirects.json'), `${JSON.stringify(redirects, null, 2)}\n`);
  fs.writeFileSync(path.join(partial, 'done'), `${new Date().toISOString()}\n`);
  try {
    fs.renameSync(partial, dir);
  } catch (error) {
    // Another Jest process bundled the same packages first: keep its copy.
    fs.rmSync(partial, { recursive: true, force: true });
    if (!fs.existsSync(path.join(dir, 'done'))) throw error;
  }
}

/**
 * The environment that makes a process load TypeBox and class-validator from the bundles
 * (bundled-packages-preload.cjs): `NODE_OPTIONS` with the preload alone, and
 * `TOOLSETS_BUNDLED_PACKAGES`. Empty when the bundles are not there or TOOLSETS_JEST_UNBUNDLED=1.
 */
function bundledPreloadEnvironment() {
  if (process.env.TOOLSETS_JEST_UNBUNDLED === '1') return {};
  const dir = bundleDir();
  if (!fs.existsSync(path.join(dir, 'redirects.json'))) return {};
  return { NODE_OPTIONS: `--require ${JSON.stringify(path.join(__dirname, 'bundled-packages-preload.cjs'))}`, TOOLSETS_BUNDLED_PACKAGES: dir };
}

/**
 * Makes the processes this Jest process starts (its workers, and the apps and tools the tests
 * start) load TypeBox and class-validator from the same bundles, through NODE_OPTIONS and
 * TOOLSETS_BUNDLED_PACKAGES. Call after bundledModuleMapper, which makes them.
 */
function preloadBundledPackages() {
  const { NODE_OPTIONS: preload, TOOLSETS_BUNDLED_PACKAGES: dir } = bundledPreloadEnvironment();
  if (!preload) return;
  process.env.TOOLSETS_BUNDLED_PACKAGES = dir;
  if (!(process.env.NODE_OPTIONS ?? '').includes(preload)) process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} ${preload}`.trim();
}

module.exports = { bundledModuleMapper, bundledPreloadEnvironment, preloadBundledPackages };

if (require.main === module) {
  bundle(process.argv[2]).catch((error) => {
    process.stderr.write(`${error.stack || error}\n`);
    process.exit(1);
  });
}
