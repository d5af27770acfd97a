#!/usr/bin/env node
// Builds the publishable @toolsets/workspace-plugin into tools/workspace-plugin/dist: the compiled
// generators and executors at the same relative paths as in src (so generators.json and
// executors.json stay as they are), their schemas and templates, the swc build and options the
// init generator writes into a workspace, and the versions it installs.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const plugin = path.join(__dirname, '..');
const root = path.join(plugin, '../..');
const dist = path.join(plugin, 'dist');

execFileSync(process.execPath, [path.join(root, 'tools/build/build-project.cjs'), path.join(plugin, 'src'), path.join(dist, 'src')], { stdio: 'inherit' });

function copyAssets(from, to) {
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) copyAssets(source, target);
    else if (!/\.ts$/.test(entry.name) || /\.d\.ts$/.test(entry.name) || /__tmpl__$/.test(entry.name) || source.includes(`${path.sep}files${path.sep}`)) {
      fs.mkdirSync(to, { recursive: true });
      fs.copyFileSync(source, target);
    }
  }
}
copyAssets(path.join(plugin, 'src'), path.join(dist, 'src'));
for (const file of ['generators.json', 'executors.json', 'README.md']) fs.copyFileSync(path.join(plugin, file), path.join(dist, file));
fs.mkdirSync(path.join(dist, 'build'), { recursive: true });
for (const file of ['build-project.cjs', 'build-views.cjs', 'swc-options.cjs', 'dev-app.cjs', 'dev-standby.cjs', 'package-app.cjs', 'mcpb-app.cjs', 'server-json-app.cjs']) fs.copyFileSync(path.join(root, 'tools/build', file), path.join(dist, 'build', file));
// The registry's server.json schema, which server-json-app.cjs validates against.
fs.cpSync(path.join(root, 'tools/build/schemas'), path.join(dist, 'build/schemas'), { recursive: true });

const rootPackage = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf-8'));
const version = (lib) => JSON.parse(fs.readFileSync(path.join(root, 'libs', lib, 'package.json'), 'utf-8')).version;
const versions = { ...rootPackage.dependencies, ...rootPackage.devDependencies, '@toolsets/core': version('core'), '@toolsets/testing': version('testing'), '@toolsets/openapi': version('openapi'), '@toolsets/mcp-upstream': version('mcp-upstream') };
fs.writeFileSync(path.join(dist, 'versions.json'), `${JSON.stringify(versions, null, 2)}\n`);

const own = JSON.parse(fs.readFileSync(path.join(plugin, 'package.json'), 'utf-8'));
const manifest = {
  name: own.name,
  version: own.version,
  description: own.description,
  license: 'MIT',
  engines: own.engines,
  main: './src/index.js',
  generators: './generators.json',
  executors: './executors.json',
  dependencies: own.dependencies,
  // Core is released with the plugin: the peer range follows its version.
  peerDependencies: { ...own.peerDependencies, '@toolsets/core': `^${version('core')}` },
  peerDependenciesMeta: own.peerDependenciesMeta,
  publishConfig: { access: 'public' },
};
fs.writeFileSync(path.join(dist, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
console.log(`packaged ${manifest.name}@${manifest.version} into ${path.relative(root, dist)}`);
