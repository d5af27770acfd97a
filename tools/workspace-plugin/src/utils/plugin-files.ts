import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A file shipped with the plugin. In the published package it is under the package root (`build/`,
 * `versions.json`); in the toolsets repository, at the repository root (`tools/build/`).
 * Generators live two folders below `src/` either way.
 */
export function pluginFile(fromGenerator: string, relative: string): string {
  const candidates = [join(fromGenerator, '../../..', relative), join(fromGenerator, '../../../../..', 'tools', relative)];
  const found = candidates.find((candidate) => existsSync(candidate));
  if (!found) throw new Error(`@toolsets/workspace-plugin is missing ${relative}; reinstall it.`);
  return readFileSync(found, 'utf-8');
}

/** The versions of the packages this plugin was built and tested with. */
export function knownVersions(fromGenerator: string): Record<string, string> {
  const packaged = join(fromGenerator, '../../../versions.json');
  if (existsSync(packaged)) return JSON.parse(readFileSync(packaged, 'utf-8'));
  const repository = join(fromGenerator, '../../../../..');
  const root = JSON.parse(readFileSync(join(repository, 'package.json'), 'utf-8')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
  const own = (lib: string) => JSON.parse(readFileSync(join(repository, 'libs', lib, 'package.json'), 'utf-8')).version as string;
  return { ...root.dependencies, ...root.devDependencies, '@toolsets/core': own('core'), '@toolsets/testing': own('testing'), '@toolsets/openapi': own('openapi'), '@toolsets/mcp-upstream': own('mcp-upstream') };
}
