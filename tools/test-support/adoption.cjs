// Test support for the adoption tests (apps/e2e/test/packages.spec.ts and
// tools/workspace-plugin/test/init-*.e2e.spec.ts): the packages packed as a newcomer packs them,
// once per run (`nx run @toolsets/workspace-plugin:adoption-packs`, which both test targets depend
// on), workspaces as create-nx-workspace makes them, and README's "Using toolsets in your own
// repository" read as the steps to follow, as written.
const { createHash } = require('node:crypto');
const { execFileSync, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { stripVTControlCharacters } = require('node:util');
const { linkNodeModules } = require('./link-node-modules.cjs');

const root = path.join(__dirname, '../..');
/** Where README's commands say the clone of this repository is. */
const CLONE_PLACEHOLDER = '/path/to/toolsets';

/**
 * This process's environment without a running Nx task's or Jest's settings, for the tools a test
 * starts: nor the preload that loads this workspace's packages from Jest's bundles (a newcomer's
 * workspace loads its own install).
 */
function cleanEnvironment(extra = {}) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(NX_|JEST_|npm_|NODE_OPTIONS$|TOOLSETS_BUNDLED_PACKAGES$)/.test(key)));
  delete env.FORCE_COLOR;
  return { ...env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false', CI: 'true', NO_COLOR: '1', ...extra };
}

/**
 * Where this checkout's adoption packs are: a fresh clone of the committed tree and the tarballs
 * README's `npm run pack` makes in it. Outside the checkout, so neither its Nx project graph nor
 * its Jest sees the clone; one folder per checkout, so two checkouts never share one.
 */
function adoptionDir() {
  const key = createHash('sha256').update(root).digest('hex').slice(0, 12);
  return path.join(os.tmpdir(), `toolsets-adoption-${key}`);
}

/**
 * A fresh `git clone` of this repository's committed tree, then README's `npm run pack` there, which
 * builds each package through its prepack script. The clone's node_modules links to this checkout's
 * installed packages, as `npm ci` would fill it (the @toolsets/* links point into the clone). The
 * clone's Nx reads and writes a cache of its own, made empty here, so nothing built before (in this
 * checkout or an earlier run: Nx 23 shares one cache between clones of a repository) reaches the
 * tarballs. Replaces what an earlier run left; returns `{ clone, packs }`.
 */
function packFromClone() {
  const dir = adoptionDir();
  fs.rmSync(dir, { recursive: true, force: true });
  const clone = path.join(dir, 'toolsets');
  execFileSync('git', ['clone', '--quiet', '--no-hardlinks', root, clone], { stdio: 'pipe' });
  linkNodeModules(root, clone);
  const [install, pack] = readmeSteps('repository')[0].split(' && ');
  if (install !== 'npm ci' || pack !== 'npm run pack') throw new Error(`README's packing step changed (${install} && ${pack}): update packFromClone.`);
  run(pack, clone, cloneNxCache(dir));
  return { clone, packs: path.join(clone, 'dist/packages') };
}

/** Nx settings that give the clone a cache of its own, under `dir`. */
function cloneNxCache(dir) {
  return { NX_CACHE_DIRECTORY: path.join(dir, 'nx-cache'), NX_WORKSPACE_DATA_DIRECTORY: path.join(dir, 'nx-data') };
}

/** The clone and packs `nx run @toolsets/workspace-plugin:adoption-packs` made, or a clear error. */
function packedClone() {
  const dir = adoptionDir();
  const clone = path.join(dir, 'toolsets');
  const packs = path.join(clone, 'dist/packages');
  if (!fs.existsSync(packs) || fs.readdirSync(packs).length === 0) {
    throw new Error(`No packages in ${packs}: run \`npx nx run @toolsets/workspace-plugin:adoption-packs\` first (the e2e test targets depend on it).`);
  }
  return { clone, packs, nxCache: cloneNxCache(dir) };
}

/** How long a create-nx-workspace snapshot serves before it is made again from the registry. */
const SNAPSHOT_DAYS = 7;

/**
 * `npx -y create-nx-workspace@<version> <name> --preset=<preset>` in `parent`, as a test needs it.
 * The first run keeps what it made (node_modules and git history too) in a snapshot under
 * `~/.cache/toolsets/create-nx-workspace`; later runs copy that for up to SNAPSHOT_DAYS days, since
 * each creation takes about 50 s and 30 CPU-seconds. `TOOLSETS_FRESH_WORKSPACES=1` (the scheduled
 * run: docs/contributing.md) always creates anew and replaces the snapshot. Returns the workspace's path.
 */
function createNxWorkspace(version, preset, name, parent) {
  const snapshots = process.env.TOOLSETS_WORKSPACE_SNAPSHOTS || path.join(os.homedir(), '.cache/toolsets/create-nx-workspace');
  const snapshot = path.join(snapshots, `${version}-${preset}-${name}`);
  const workspace = path.join(parent, name);
  const stamp = path.join(snapshot, '.toolsets-snapshot');
  const fresh = process.env.TOOLSETS_FRESH_WORKSPACES === '1';
  const age = fs.existsSync(stamp) ? Date.now() - fs.statSync(stamp).mtimeMs : Infinity;
  if (!fresh && age < SNAPSHOT_DAYS * 86_400_000) {
    execFileSync('cp', ['-a', snapshot, workspace]);
    fs.rmSync(path.join(workspace, '.toolsets-snapshot'));
    return workspace;
  }
  run(`npx -y create-nx-workspace@${version} ${name} --preset=${preset} --nxCloud=skip --interactive=false`, parent);
  // Written under a temporary name and renamed, so a run that stops half way leaves no snapshot.
  fs.mkdirSync(snapshots, { recursive: true });
  const partial = fs.mkdtempSync(path.join(snapshots, '.partial-'));
  execFileSync('cp', ['-a', workspace, path.join(partial, 'workspace')]);
  fs.writeFileSync(path.join(partial, 'workspace/.toolsets-snapshot'), `create-nx-workspace@${version} --preset=${preset}, ${new Date().toISOString()}\n`);
  fs.rmSync(snapshot, { recursive: true, force: true });
  fs.renameSync(path.join(partial, 'workspace'), snapshot);
  fs.rmSync(partial, { recursive: true, force: true });
  return workspace;
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
  const output = stripVTControlCharacters(`${result.stdout}\n${result.stderr}`);
  if (result.status !== 0) {
    const error = new Error(`\`${line}\` in ${cwd} exited with ${result.status}:\n${output.slice(-8000)}`);
    error.output = output;
    error.status = result.status;
    throw error;
  }
  return output;
}

module.exports = { CLONE_PLACEHOLDER, cleanEnvironment, consumerBlocks, createNxWorkspace, packedClone, packFromClone, readmeSteps, run };

// `node tools/test-support/adoption.cjs pack`: the adoption-packs target.
if (require.main === module && process.argv[2] === 'pack') {
  const { packs } = packFromClone();
  process.stdout.write(`Packed ${fs.readdirSync(packs).join(', ')} in ${packs}\n`);
}
