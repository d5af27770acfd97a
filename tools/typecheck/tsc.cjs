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
for (const config of configs) {
  const run = spawnSync(process.execPath, [tsc, '-p', config, '--pretty', 'false'], { stdio: 'inherit', cwd: path.join(__dirname, '../..') });
  if (run.status !== 0) process.exit(run.status ?? 1);
}
