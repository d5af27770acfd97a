// What the adoption tests share (apps/e2e/test/packages.spec.ts and
// tools/workspace-plugin/test/init.e2e.spec.ts): the packages packed as a newcomer packs them, and
// README's "Using toolsets in your own repository" read as the steps to follow, as written.
const { execFileSync, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '../..');
/** Where README's commands say the clone of this repository is. */
const CLONE_PLACEHOLDER = '/path/to/toolsets';

/** This process's environment without a running Nx task's or Jest's settings, for the tools a test starts. */
function cleanEnvironment(extra = {}) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(NX_|JEST_|npm_)/.test(key)));
  delete env.FORCE_COLOR;
  return { ...env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false', CI: 'true', NO_COLOR: '1', ...extra };
}

/**
 * A fresh `git clone` of this repository in `clone` (an empty or missing folder), then README's
 * `npm run pack` there, which builds each package through its prepack script. The clone's
 * node_modules links to this checkout's installed packages, as `npm ci` would fill it (the
 * @toolsets/* links point into the clone), so nothing built in this checkout reaches the tarballs.
 * Returns the tarballs' folder.
 */
function packFromClone(clone) {
  execFileSync('git', ['clone', '--quiet', '--no-hardlinks', root, clone], { stdio: 'pipe' });
  const modules = path.join(root, 'node_modules');
  fs.mkdirSync(path.join(clone, 'node_modules/@toolsets'), { recursive: true });
  for (const entry of fs.readdirSync(modules)) {
    if (entry !== '@toolsets') fs.symlinkSync(path.join(modules, entry), path.join(clone, 'node_modules', entry));
  }
  for (const pkg of fs.readdirSync(path.join(modules, '@toolsets'))) {
    fs.symlinkSync(fs.readlinkSync(path.join(modules, '@toolsets', pkg)), path.join(clone, 'node_modules/@toolsets', pkg));
  }
  const [install, pack] = readmeSteps('repository')[0].split(' && ');
  if (install !== 'npm ci' || pack !== 'npm run pack') throw new Error(`README's packing step changed (${install} && ${pack}): update packFromClone.`);
  run(pack, clone);
  return path.join(clone, 'dist/packages');
}

/** README's `<!-- readme-check: consumer <name> -->` blocks, by name: `{ lang, code }`. */
function consumerBlocks() {
  const lines = fs.readFileSync(path.join(root, 'README.md'), 'utf-8').split('\n');
  const blocks = {};
  for (let i = 0; i < lines.length; i++) {
    const marker = /^<!-- readme-check: consumer (\S+) -->$/.exec(lines[i]);
    if (!marker) continue;
    const fence = /^```(\w+)$/.exec(lines[i + 1] ?? '');
    if (!fence) throw new Error(`README.md:${i + 1}: the consumer marker is not followed by a fenced block.`);
    const end = lines.indexOf('```', i + 2);
    blocks[marker[1]] = { lang: fence[1], code: lines.slice(i + 2, end).join('\n') };
  }
  return blocks;
}

/** The command lines of a README bash block, comments dropped, with the clone's path put in. */
function readmeSteps(name, clone = CLONE_PLACEHOLDER) {
  const block = consumerBlocks()[name];
  if (!block || block.lang !== 'bash') throw new Error(`README.md has no consumer bash block '${name}'.`);
  return block.code
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter(Boolean)
    .map((line) => line.split(CLONE_PLACEHOLDER).join(clone));
}

/** Runs one command line in a shell (globs expand as a user's would); returns its output, or throws with it. */
function run(line, cwd, extraEnv = {}) {
  const result = spawnSync('bash', ['-c', line], { cwd, env: cleanEnvironment(extraEnv), encoding: 'utf-8', maxBuffer: 64 * 1024 * 1024 });
  const output = `${result.stdout}\n${result.stderr}`.replace(/\u001b\[[0-9;]*m/g, '');
  if (result.status !== 0) {
    const error = new Error(`\`${line}\` in ${cwd} exited with ${result.status}:\n${output.slice(-8000)}`);
    error.output = output;
    error.status = result.status;
    throw error;
  }
  return output;
}

module.exports = { CLONE_PLACEHOLDER, cleanEnvironment, consumerBlocks, packFromClone, readmeSteps, run };
