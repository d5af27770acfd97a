#!/usr/bin/env node
// The typecheck targets: each tsconfig given, checked in turn by the native TypeScript 7 compiler
// (this folder's own `typescript`, kept out of the root's node_modules/.bin). It checks the same
// sources 3–4 times faster than TypeScript 5.9 (hello's library, which pulls in core's source
// through its path mapping: 12 CPU-s → 3), and typecheck emits nothing, so TypeScript 7 not
// emitting decorator metadata does not matter here.
// Builds stay on swc, declarations (`npm run pack`) on the workspace's TypeScript 5.9, and
// packages.spec.ts checks the published declarations with TypeScript 5.9, 6.0 and 7.0.
// Usage: typecheck.cjs <tsconfig>...
const { spawnSync } = require('node:child_process');
const path = require('node:path');

// This folder's own TypeScript 7 (the workspace root keeps 5.9 for everything else).
const tsc = path.join(path.dirname(require.resolve('typescript/package.json', { paths: [__dirname] })), 'bin/tsc');
const configs = process.argv.slice(2);
if (configs.length === 0) {
  console.error('Usage: typecheck.cjs <tsconfig>...');
  process.exit(2);
}
for (const config of configs) {
  const run = spawnSync(process.execPath, [tsc, '-p', config, '--pretty', 'false'], { stdio: 'inherit', cwd: path.join(__dirname, '../..') });
  if (run.status !== 0) process.exit(run.status ?? 1);
}
