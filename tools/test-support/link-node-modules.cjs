// What `npm ci` would give a copy or clone of this workspace, without installing: its node_modules
// as links to this checkout's installed packages, the @toolsets/* links pointing into the copy
// itself, and each workspace package's own nested node_modules (tools/typecheck's TypeScript 7).
const fs = require('node:fs');
const path = require('node:path');

/** Links `target`'s node_modules to `source`'s installed packages; `target` is a copy of `source`'s files. */
function linkNodeModules(source, target) {
  const modules = path.join(source, 'node_modules');
  fs.mkdirSync(path.join(target, 'node_modules/@toolsets'), { recursive: true });
  for (const entry of fs.readdirSync(modules)) {
    if (entry !== '@toolsets') fs.symlinkSync(path.join(modules, entry), path.join(target, 'node_modules', entry));
  }
  // Relative links (../../libs/core): in the copy they point at the copy's own packages.
  for (const pkg of fs.readdirSync(path.join(modules, '@toolsets'))) {
    fs.symlinkSync(fs.readlinkSync(path.join(modules, '@toolsets', pkg)), path.join(target, 'node_modules/@toolsets', pkg));
  }
  for (const workspace of workspaceFolders(source)) {
    const nested = path.join(source, workspace, 'node_modules');
    if (fs.existsSync(nested) && fs.existsSync(path.join(target, workspace))) fs.symlinkSync(nested, path.join(target, workspace, 'node_modules'));
  }
}

/** The folders the root package.json's `workspaces` globs (`libs/*`) name. */
function workspaceFolders(root) {
  const { workspaces = [] } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf-8'));
  return workspaces.flatMap((pattern) => {
    const [parent, star] = [path.dirname(pattern), path.basename(pattern)];
    if (star !== '*') return [pattern];
    const dir = path.join(root, parent);
    return fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => path.join(parent, e.name)) : [];
  });
}

module.exports = { linkNodeModules };
