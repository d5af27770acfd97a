'use strict';
// Plain CommonJS on purpose: it also runs alone, in the child process that loads a document's
// generated code (generated-catalog.child.cjs), where nothing compiles TypeScript first.

const GENERATED = 'src/generated/';

/**
 * The generated toolsets' modules, compiled from the sources in memory as the build does (legacy
 * decorators with their metadata) with `ts` (the workspace's TypeScript), and run with `load` for
 * every other import. Gives what the `.toolset` modules export (every toolset class).
 */
function loadGeneratedSources(files, load, ts) {
  // The generated modules import each other as `./dtos` and `./<name>.client`: each runs once, on first import.
  const sources = new Map(Object.keys(files).filter((file) => file.startsWith(GENERATED)).map((file) => [`./${file.slice(GENERATED.length, -'.ts'.length)}`, files[file]]));
  const loaded = new Map();
  const compile = (source) =>
    ts.transpileModule(source, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.CommonJS, experimentalDecorators: true, emitDecoratorMetadata: true } }).outputText;
  const resolve = (id) => {
    const source = sources.get(id);
    if (source === undefined) return load(id);
    let exports = loaded.get(id);
    if (!exports) {
      const module = { exports: {} };
      loaded.set(id, module.exports);
      new Function('require', 'module', 'exports', compile(source))(resolve, module, module.exports);
      exports = module.exports;
    }
    return exports;
  };
  return Object.assign({}, ...[...sources.keys()].filter((id) => id.endsWith('.toolset')).map(resolve));
}

module.exports = { loadGeneratedSources };
