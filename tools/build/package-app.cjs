#!/usr/bin/env node
// Assembles a publishable server app into <appRoot>/dist-package and packs it there:
// the app's build, and every workspace library it needs (`bundleDependencies` in its package.json:
// @toolsets/core and its toolset libraries) bundled inside, so `npx -y <package> --stdio` needs
// only the registry's third-party packages. Usage: package-app.cjs <appRoot> [outDir], outDir
// defaulting to <appRoot>/dist-package.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '../..');
const appRoot = path.resolve(root, process.argv[2] ?? '');
const manifest = JSON.parse(fs.readFileSync(path.join(appRoot, 'package.json'), 'utf-8'));
if (manifest.private || !manifest.bin) {
  console.error(`${path.relative(root, appRoot)}/package.json is not publishable: it needs a "bin" and no "private". Generate the app with --publishable.`);
  process.exit(1);
}
const out = process.argv[3] ? path.resolve(process.argv[3]) : path.join(appRoot, 'dist-package');
fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(out, { recursive: true });
fs.cpSync(path.join(appRoot, 'dist'), path.join(out, 'dist'), { recursive: true, filter: (file) => !file.endsWith('.map') });
for (const name of manifest.bundleDependencies ?? []) {
  const library = path.dirname(fs.realpathSync(require.resolve(`${name}/package.json`, { paths: [root] })));
  const target = path.join(out, 'node_modules', name);
  fs.cpSync(path.join(library, 'dist'), path.join(target, 'dist'), { recursive: true, filter: (file) => !file.endsWith('.map') });
  const own = JSON.parse(fs.readFileSync(path.join(library, 'package.json'), 'utf-8'));
  const rest = { ...own };
  delete rest.private;
  delete rest.types;
  fs.writeFileSync(path.join(target, 'package.json'), `${JSON.stringify({ ...rest, main: './dist/index.js' }, null, 2)}\n`);
}
fs.writeFileSync(path.join(out, 'package.json'), `${JSON.stringify({ ...manifest, files: ['dist'] }, null, 2)}\n`);
for (const file of ['README.md', 'LICENSE']) if (fs.existsSync(path.join(appRoot, file))) fs.copyFileSync(path.join(appRoot, file), path.join(out, file));
const tarball = execFileSync('npm', ['pack', '--silent', '--pack-destination', out], { cwd: out, encoding: 'utf-8' }).trim().split('\n').pop();
console.log(`packed ${manifest.name}@${manifest.version}: ${path.relative(root, path.join(out, tarball))}`);
