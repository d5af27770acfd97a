import { createRequire } from 'node:module';
import { join } from 'node:path';
import type * as Core from '@toolsets/core';
import ts from 'typescript';

const GENERATED = 'src/generated/';

/**
 * The generated toolsets' modules, compiled from the sources in memory as the build does (legacy
 * decorators with their metadata) and run with the workspace's own packages: what a test or the
 * generator's size report needs before anything is written or built. Gives every toolset class
 * (one, or one per tag) and what its module exports.
 */
export function loadGeneratedSources(files: Record<string, string>, load: (id: string) => unknown = require): Record<string, unknown> {
  // The generated modules import each other as `./dtos` and `./<name>.client`: each runs once, on first import.
  const sources = new Map(Object.keys(files).filter((file) => file.startsWith(GENERATED)).map((file) => [`./${file.slice(GENERATED.length, -'.ts'.length)}`, files[file]]));
  const loaded = new Map<string, Record<string, unknown>>();
  const resolve = (id: string): unknown => {
    const source = sources.get(id);
    if (source === undefined) return load(id);
    let exports = loaded.get(id);
    if (!exports) {
      const module = { exports: {} as Record<string, unknown> };
      loaded.set(id, module.exports);
      new Function('require', 'module', 'exports', compile(source))(resolve, module, module.exports);
      exports = module.exports;
    }
    return exports;
  };
  return Object.assign({}, ...[...sources.keys()].filter((id) => id.endsWith('.toolset')).map(resolve));
}

/**
 * The generated toolset classes loaded with the workspace's own packages, as the built library will
 * load them (one core, one metadata store), and that core, to build their catalog with.
 */
export function loadGeneratedToolsets(workspaceRoot: string, files: Record<string, string>): { core: typeof Core; toolsets: ReturnType<typeof Core.findToolsets> } {
  const requireInWorkspace = createRequire(join(workspaceRoot, 'package.json'));
  const core = requireInWorkspace('@toolsets/core') as typeof Core;
  return { core, toolsets: core.findToolsets(loadGeneratedSources(files, requireInWorkspace)) };
}

function compile(source: string): string {
  return ts.transpileModule(source, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.CommonJS, experimentalDecorators: true, emitDecoratorMetadata: true } }).outputText;
}
