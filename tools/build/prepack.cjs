#!/usr/bin/env node
// npm runs this before `npm pack` and `npm publish` of a publishable library (its "prepack"
// script, run in the library's folder): it builds the library with Nx (from cache when nothing
// changed), then refuses to pack if a file the manifest points at (main, types, exports) is
// missing, so a fresh clone can never produce an empty tarball.
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

// `--target=package --packFrom=dist`: a package assembled into a subfolder by its own target (the
// workspace plugin); its source folder is never packed.
const option = (name, fallback) => process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const target = option('target', 'build');
const packFrom = option('packFrom', undefined);
const packageDir = process.cwd();
const manifest = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf-8'));
let where = packageDir;
const root = findWorkspaceRoot(packageDir);
where = path.relative(root, packageDir) || '.';

// Nx sets these for the task it runs; an `npm pack` started from inside a task must not inherit them.
const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^NX_TASK|^NX_.*_TARGET|^NX_TERMINAL/.test(key)));
const nx = spawnSync(process.execPath, [require.resolve('nx/bin/nx', { paths: [root] }), 'run', `${manifest.name}:${target}`, '--outputStyle=static'], {
  cwd: root,
  env: { ...env, NX_DAEMON: env.NX_DAEMON ?? 'false' },
  stdio: ['ignore', 'pipe', 'pipe'],
  encoding: 'utf-8',
});
if (nx.status !== 0) {
  process.stderr.write(`${nx.stdout}${nx.stderr}`);
  fail(`building it failed (npx nx run ${manifest.name}:${target} exited with ${nx.status}); fix the build, then pack again.`);
}

if (packFrom) fail(`this folder is the source of ${manifest.name}; the package is assembled in ${path.join(where, packFrom)} (just built): pack that folder instead, or run \`npm run pack\` at the workspace root for every package.`);

const missing = entryFiles(manifest).filter((file) => !fs.existsSync(path.join(packageDir, file)));
if (missing.length) fail(`${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing after the build; run \`npx nx run ${manifest.name}:${target}\` and check its output.`);

function entryFiles(pkg) {
  const files = new Set([pkg.main, pkg.types].filter(Boolean));
  const visit = (value) => {
    if (typeof value === 'string') {
      if (value !== './package.json') files.add(value);
    } else if (value && typeof value === 'object') Object.values(value).forEach(visit);
  };
  visit(pkg.exports);
  return [...files].map((file) => path.normalize(file));
}

function findWorkspaceRoot(from) {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'nx.json'))) return dir;
    if (path.dirname(dir) === dir) fail('it is not inside the toolsets workspace (no nx.json above it).');
  }
}

function fail(reason) {
  process.stderr.write(`npm pack ${where}: refused, ${reason}\n`);
  process.exit(1);
}
