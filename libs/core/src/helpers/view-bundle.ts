import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/**
 * Where the view generator's build puts the view `name` of the library that `fromDir` belongs to:
 * `<library>/dist/views/<name>.html`, the library being the nearest folder upwards with a
 * package.json. Pass `__dirname`: the same path comes out whether the toolset runs from `src/`
 * (tests) or from `dist/` (the built app).
 */
export function viewBundle(fromDir: string, name: string): string {
  let dir = resolve(fromDir);
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) return resolve(fromDir, `${name}.html`);
    dir = parent;
  }
  return join(dir, 'dist', 'views', `${name}.html`);
}
