#!/usr/bin/env node
// Runs a built bin of a workspace library, building the library first only when its sources are
// newer than the bin: `npm run call` and `npm run issuer` then start in a fraction of a second
// instead of the seconds Nx needs to load the project graph and check its cache.
// Usage: run-bin.cjs <library folder> <bin name> [args for the bin...]
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const [library, bin] = process.argv.slice(2, 4);
if (!library || !bin) {
  console.error('Usage: run-bin.cjs <library folder> <bin name> [args...]');
  process.exit(2);
}
const root = path.resolve(__dirname, '../..');
const folder = path.join(root, library);
const script = path.join(folder, 'dist/bin', `${bin}.js`);

function newestSource(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

const built = fs.existsSync(script) ? fs.statSync(script).mtimeMs : 0;
const sources = Math.max(newestSource(path.join(folder, 'src')), fs.statSync(path.join(folder, 'package.json')).mtimeMs);
if (built < sources) {
  const project = JSON.parse(fs.readFileSync(path.join(folder, 'package.json'), 'utf8')).name;
  process.stderr.write(`building ${project} (its sources changed since ${bin} was built)…\n`);
  try {
    execFileSync(process.execPath, [require.resolve('nx/bin/nx.js'), 'run', `${project}:build`, '--outputStyle=static'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  } catch {
    process.stderr.write(`The build of ${project} failed: run npx nx run ${project}:build to see why.\n`);
    process.exit(1);
  }
}
// The bin runs in this process, as if started directly: its arguments, its stdin, its signals.
process.argv.splice(2, 2);
require(script);
