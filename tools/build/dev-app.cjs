#!/usr/bin/env node
// The edit loop of a server app: serves it, and on every change to a project's sources rebuilds the
// changed files with swc and restarts the server on the same port. A server that fails to start
// (the startup gate refusing a tool) prints why and the watcher waits for the next change. A
// change under a project's views/ rebuilds its views (build-views.cjs) before the restart.
// Usage: dev-app.cjs <appRoot> [server arguments...]   (from the workspace root, after a build)
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync, spawn } = require('node:child_process');
const swc = require('@swc/core');
const options = require('./swc-options.cjs');

const [appArg, ...serverArgs] = process.argv.slice(2);
if (!appArg) {
  console.error('Usage: dev-app.cjs <appRoot> [server arguments...]');
  process.exit(2);
}
const root = process.cwd();
const appRoot = path.resolve(appArg);
const main = path.join(appRoot, 'dist', 'main.js');
/**
 * How a stopping dev server drains, unless the environment says otherwise: its listener and idle
 * connections close at once (no balancer in front of it, so no quiet moment to wait for: a client's
 * next connection reaches the new server, or is refused until it listens), the calls in flight are
 * answered, and what still runs after DRAIN_TIMEOUT_MS is answered "Shutting down" and cut.
 * Killing it sooner left a call in flight unanswered, and the SDK's client waits out its 60 s
 * request timeout for an event stream that ended without an answer.
 */
const DEV_DRAIN = { DRAIN_QUIET_MS: '0', DRAIN_TIMEOUT_MS: '1000' };
const serverEnv = { NODE_ENV: 'development', ...DEV_DRAIN, ...process.env };
/**
 * How long a stopping server may take before it is killed: a bound on one that does not stop, past
 * its whole drain (the wait for a quiet moment and the calls, each at most DRAIN_TIMEOUT_MS, then
 * at most a second to send the calls it cut their "Shutting down" answers).
 */
const STOP_GRACE_MS = 2 * drainTimeoutMs(serverEnv.DRAIN_TIMEOUT_MS) + 2000;

function drainTimeoutMs(value) {
  const ms = Number(value);
  return Number.isFinite(ms) && ms >= 0 ? ms : Number(DEV_DRAIN.DRAIN_TIMEOUT_MS);
}

/** Every project built by build-project.cjs (its project.json says `build-project.cjs <src> <dist>`): what to watch and where it builds. */
function swcProjects() {
  const found = [];
  const visit = (dir, depth) => {
    if (depth > 5) return;
    let entries;
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    if (entries.some((entry) => entry.name === 'project.json')) {
      const command = JSON.stringify(JSON.parse(fs.readFileSync(path.join(dir, 'project.json'), 'utf-8')).targets?.build ?? {});
      const match = /build-project\.cjs\s+(\S+)\s+([^\s"&]+)/.exec(command);
      if (match) found.push({ name: path.relative(root, dir), root: dir, src: path.resolve(root, match[1]), dist: path.resolve(root, match[2]) });
    }
    for (const entry of entries) {
      if (entry.isDirectory() && !['node_modules', 'dist', 'tmp', '.git', '.nx', 'coverage'].includes(entry.name) && !entry.name.startsWith('.')) visit(path.join(dir, entry.name), depth + 1);
    }
  };
  for (const top of ['apps', 'libs', 'packages']) visit(path.join(root, top), 1);
  return found;
}

const isSource = (file) => /\.ts$/.test(file) && !/\.(spec|test|type-test)\.ts$/.test(file) && !file.endsWith('.d.ts');

/** Where build-project.cjs and compile() write a source's JavaScript. */
const outputOf = (project, file) => path.join(project.dist, path.relative(project.src, file)).replace(/\.ts$/, '.js');

/**
 * Every source of the watched projects that is newer than its output, or has none: a change the
 * watcher never reported. @parcel/watcher reports the first change after a quiet moment at once and
 * can lose one made in the same instant (it copies its event list, then clears it, under separate
 * locks): one file of a two-file save went unseen once in a full CI run. Changes made while nothing
 * watched, or through a hard link from outside the project, are never reported at all. Equal times
 * count as newer, for file systems that keep whole seconds.
 */
function staleSources(projects) {
  return projects.flatMap((project) =>
    filesUnder(project.src)
      .filter(isSource)
      .filter((file) => {
        const output = fs.statSync(outputOf(project, file), { throwIfNoEntry: false });
        const source = fs.statSync(file, { throwIfNoEntry: false });
        return source && (!output || source.mtimeMs >= output.mtimeMs);
      })
      .map((file) => [file, project]),
  );
}

/** Every file under `dir`, as full paths; none when it is missing. */
function filesUnder(dir) {
  try {
    return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => !entry.isDirectory()).map((entry) => path.join(entry.parentPath, entry.name));
  } catch {
    return [];
  }
}

/** The watched projects with a view (views/<name>/index.html) changed since its page was built (dist/views/<name>.html), or never built: as staleSources, for views. */
function staleViews(projects) {
  return projects.filter((project) => {
    const views = path.join(project.root, 'views');
    let names;
    try {
      names = fs.readdirSync(views, { withFileTypes: true }).filter((entry) => entry.isDirectory() && fs.existsSync(path.join(views, entry.name, 'index.html'))).map((entry) => entry.name);
    } catch {
      return false;
    }
    return names.some((name) => {
      const built = fs.statSync(path.join(project.root, 'dist', 'views', `${name}.html`), { throwIfNoEntry: false });
      const newest = Math.max(0, ...filesUnder(path.join(views, name)).map((file) => fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0));
      return !built || newest >= built.mtimeMs;
    });
  });
}

/**
 * Compiles each of `changed` on its own, so one that does not compile (its error printed) never
 * keeps the rest from being compiled. Gives those that failed.
 */
function compileEach(changed) {
  return changed.filter(([file, project]) => {
    try {
      compile(project, file);
      return false;
    } catch (error) {
      console.error(`[dev] ${error.message}`);
      return true;
    }
  });
}

/** One source file compiled into its project's dist (or its output removed when the source is gone). */
function compile(project, file) {
  const out = outputOf(project, file);
  if (!fs.existsSync(file)) {
    fs.rmSync(out, { force: true });
    fs.rmSync(`${out}.map`, { force: true });
    return;
  }
  const { code, map } = swc.transformFileSync(file, { ...options, sourceMaps: true, filename: file, outputPath: out });
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, `${code}\n//# sourceMappingURL=${path.basename(out)}.map\n`);
  if (map) fs.writeFileSync(`${out}.map`, map);
}

let server;
/** The next server, already past loading core and the SDK (dev-standby.cjs), or undefined. */
let standby;
let starting = false;
let restartAgain = false;

/** TOOLSETS_DEV_STANDBY=0 starts every server from cold (to compare, or should preloading ever get in the way). */
const useStandby = process.env.TOOLSETS_DEV_STANDBY !== '0';

/** Starts a standby: a process that has loaded the shared packages and waits to be told to serve. */
function prepare() {
  if (!useStandby) return;
  const child = spawn(process.execPath, ['--enable-source-maps', path.join(__dirname, 'dev-standby.cjs'), main, ...serverArgs], { stdio: ['inherit', 'inherit', 'inherit', 'ipc'], env: serverEnv });
  const ready = new Promise((resolve) => {
    child.once('message', () => resolve(true));
    child.once('exit', () => resolve(false));
  });
  standby = { child, ready };
}

/** Serves: the standby, when it is ready and still current, else a fresh process; and prepares the next. */
async function start(fresh = false) {
  const next = standby;
  standby = undefined;
  let child;
  if (next && !fresh && (await next.ready)) {
    next.child.send('go');
    child = next.child;
  } else {
    next?.child.kill('SIGKILL');
    // Outside production, so stacks of thrown errors reach this terminal's log.
    child = spawn(process.execPath, ['--enable-source-maps', main, ...serverArgs], { stdio: 'inherit', env: serverEnv });
  }
  server = child;
  child.on('exit', (code, signal) => {
    // stop() lets go of the server before it signals it: one still held here ended on its own.
    const ownStop = server !== child;
    if (!ownStop) server = undefined;
    if (signal === null && code !== 0) console.error(`\n[dev] the server stopped (exit ${code}); fix the above and save: it restarts on the next change.`);
    else if (signal !== null && !ownStop) console.error(`\n[dev] the server was ended by ${signal}, not by a restart; save a change to start it again.`);
  });
  prepare();
}

function stop() {
  const child = server;
  server = undefined;
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((stopped) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    child.once('exit', () => {
      clearTimeout(kill);
      stopped();
    });
    child.kill('SIGTERM');
  });
}

const pending = new Map();
/** Projects with a changed file under views/: their views are rebuilt before the restart. */
const pendingViews = new Set();
let timer;

async function restart() {
  if (starting) {
    restartAgain = true;
    return;
  }
  starting = true;
  // What the watcher reported, and what it may have missed.
  for (const [file, project] of staleSources(projects)) if (!pending.has(file)) pending.set(file, project);
  for (const project of staleViews(projects)) pendingViews.add(project);
  const changed = [...pending.entries()];
  const viewProjects = [...pendingViews];
  pending.clear();
  pendingViews.clear();
  const began = Date.now();
  // Said at once: a views build (Vite) can take seconds, and a saved change should be seen to be noticed.
  if (viewProjects.length > 0) console.log(`[dev] ${viewProjects.map((project) => `${project.name}/views`).join(', ')} changed: building the views`);
  // Each file on its own: one that does not compile stays pending (the next save of any file tries
  // it again) and stops the restart, but never keeps the rest of its burst from being compiled.
  const notCompiled = compileEach(changed);
  for (const [file, project] of notCompiled) if (!pending.has(file)) pending.set(file, project);
  let failed = notCompiled.length;
  for (const project of viewProjects) {
    try {
      execFileSync(process.execPath, [path.join(__dirname, 'build-views.cjs'), project.root], { stdio: ['ignore', 'ignore', 'inherit'] });
    } catch (error) {
      failed++;
      pendingViews.add(project);
      console.error(`[dev] ${error.message}`);
    }
  }
  if (failed > 0) {
    console.error(`[dev] ${failed} change(s) did not build; the server keeps running the last code that did. Fix and save: it restarts then.`);
    starting = false;
    return;
  }
  await stop();
  const names = [...new Set([...changed.map(([file]) => path.relative(root, file)), ...viewProjects.map((project) => `${project.name}/views`)])];
  console.log(`\n[dev] ${names.slice(0, 3).join(', ')}${names.length > 3 ? ` and ${names.length - 3} more` : ''} changed: rebuilt in ${Date.now() - began} ms, restarting`);
  // The standby loaded the shared packages before this change: a change to one of them needs a fresh process.
  await start(changed.some(([, project]) => preloaded.has(project)));
  starting = false;
  if (restartAgain) {
    restartAgain = false;
    if (pending.size > 0 || pendingViews.size > 0) restart();
  }
}

function schedule() {
  clearTimeout(timer);
  // Editors save in bursts (write, rename, chmod): one rebuild for the burst.
  timer = setTimeout(restart, 60);
}

/**
 * Watches each project's sources and views with @parcel/watcher (Nx's own file watcher, native):
 * `fs.watch` lost a file for good after one atomic save (a temp file renamed over it: `sed -i`,
 * vim, JetBrains' safe write), since it watches the inode the rename replaced.
 */
async function watch(projects) {
  const watcher = require('@parcel/watcher');
  const failed = (error) => console.error(`[dev] watching stopped working: ${error.message}`);
  for (const project of projects) {
    const views = path.join(project.root, 'views');
    if (fs.existsSync(views)) {
      await watcher.subscribe(views, (error, events) => {
        if (error) return failed(error);
        if (events.length === 0) return;
        pendingViews.add(project);
        schedule();
      });
    }
    if (!fs.existsSync(project.src)) continue;
    await watcher.subscribe(project.src, (error, events) => {
      if (error) return failed(error);
      // A deleted source too: compile() removes its output, as a build (which starts from an empty dist) would not write it.
      const sources = events.filter((event) => isSource(event.path));
      for (const event of sources) pending.set(event.path, project);
      if (sources.length > 0) schedule();
    });
  }
}

if (!fs.existsSync(main)) {
  console.error(`[dev] ${path.relative(root, main)} is not built: run the app's dev target (nx run <app>:dev builds first), or build it once.`);
  process.exit(1);
}
const projects = swcProjects();
/** Projects whose build a standby loads ahead (core, the OpenAPI runtime), found by where they resolve from the app. */
const preloaded = new Set(
  projects.filter((project) =>
    ['@toolsets/core', '@toolsets/openapi'].some((name) => {
      try {
        return fs.realpathSync(require.resolve(name, { paths: [path.dirname(main)] })).startsWith(`${fs.realpathSync(project.dist)}${path.sep}`);
      } catch {
        return false;
      }
    }),
  ),
);
watch(projects).then(
  () => console.log(`[dev] watching ${projects.length} project${projects.length === 1 ? '' : 's'} (${projects.map((p) => p.name).join(', ')}); a saved change rebuilds and restarts the server. Ctrl-C stops.`),
  (error) => {
    console.error(`[dev] cannot watch the sources: ${error.message}`);
    process.exit(1);
  },
);
// A source saved after the last build (while nothing watched) is served too, not only from its next save.
// One that does not compile stays stale, so the next restart tries it again.
const changedSinceBuild = staleSources(projects);
compileEach(changedSinceBuild);
if (changedSinceBuild.length > 0) console.log(`[dev] ${changedSinceBuild.length} source file(s) changed since the last build: compiled before serving`);
start(true);

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    standby?.child.kill('SIGKILL');
    stop().then(() => process.exit(0));
  });
}
