import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { workspaceRoot } from './server-process';

/** A publishable app as its users get it: its package (`package-app.cjs`), and that package installed as production installs it. */
export interface PackedApp {
  /** The folder `package-app.cjs` packed into (the tarball, and what `mcpb-app.cjs` reads). */
  packageDir: string;
  tarball: string;
  /** A folder with `{"private":true}` and the tarball installed with `npm install --omit=dev`, as the image's runtime stage does. */
  installed: string;
}

/**
 * Packs and installs `app` once for every suite and Jest worker of a run that needs it (the
 * image, the published package, the bundle), in a folder named by the built files' sizes and
 * times, so a rebuild packs again. The first to need it makes it in a folder of its own and moves
 * it into place; another that finds it in place uses it.
 */
export function packedApp(app: string): PackedApp {
  const appRoot = join(workspaceRoot, 'apps', app);
  const place = join(tmpdir(), `toolsets-e2e-${app}-${buildStamp(appRoot)}`);
  if (!existsSync(join(place, 'done'))) {
    forgetOldPacks(app);
    const making = `${place}.${process.pid}`;
    rmSync(making, { recursive: true, force: true });
    mkdirSync(making, { recursive: true });
    execFileSync(process.execPath, [join(workspaceRoot, 'tools/build/package-app.cjs'), appRoot, join(making, 'package')], { stdio: 'pipe' });
    const tarball = readdirSync(join(making, 'package')).find((file) => file.endsWith('.tgz'))!;
    mkdirSync(join(making, 'installed'));
    writeFileSync(join(making, 'installed/package.json'), '{"private":true}');
    execFileSync('npm', ['install', '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', join(making, 'package', tarball)], { cwd: join(making, 'installed'), stdio: 'pipe' });
    writeFileSync(join(making, 'done'), tarball);
    try {
      renameSync(making, place);
    } catch {
      // Another worker moved its copy into place first: use that one.
      rmSync(making, { recursive: true, force: true });
    }
  }
  const tarball = readdirSync(join(place, 'package')).find((file) => file.endsWith('.tgz'))!;
  return { packageDir: join(place, 'package'), tarball: join(place, 'package', tarball), installed: join(place, 'installed') };
}

/** Packs of earlier builds of `app` left by runs more than an hour ago (a run uses its own within minutes). */
function forgetOldPacks(app: string): void {
  const prefix = `toolsets-e2e-${app}-`;
  for (const name of readdirSync(tmpdir())) {
    const path = join(tmpdir(), name);
    if (name.startsWith(prefix) && Date.now() - statSync(path).mtimeMs > 3_600_000) rmSync(path, { recursive: true, force: true });
  }
}

/** A digest of the app's built files and of the libraries' builds it bundles: their paths, sizes and times. */
function buildStamp(appRoot: string): string {
  const hash = createHash('sha256');
  const visit = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) visit(path);
      else {
        const stat = statSync(path);
        hash.update(`${relative(workspaceRoot, path)}\n${stat.size}\n${stat.mtimeMs}\n`);
      }
    }
  };
  for (const dir of [join(appRoot, 'dist'), join(workspaceRoot, 'libs/core/dist'), join(workspaceRoot, 'libs/toolsets/credential-demo/dist')]) visit(dir);
  return hash.digest('hex').slice(0, 16);
}
