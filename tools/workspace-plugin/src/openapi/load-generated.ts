import ts from 'typescript';
import { GENERATED_DTOS, generatedToolsetFile } from './generate-toolset';

/**
 * The generated toolset's module, compiled from the sources in memory as the build does (legacy
 * decorators with their metadata) and run with the workspace's own packages: what a test or the
 * generator's size report needs before anything is written or built.
 */
export function loadGeneratedSources(files: Record<string, string>, name: string, load: (id: string) => unknown = require): Record<string, unknown> {
  const compile = (source: string) =>
    ts.transpileModule(source, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.CommonJS, experimentalDecorators: true, emitDecoratorMetadata: true } }).outputText;
  const run = (source: string, local: Record<string, unknown> = {}) => {
    const module = { exports: {} as Record<string, unknown> };
    new Function('require', 'module', 'exports', compile(source))((id: string) => local[id] ?? load(id), module, module.exports);
    return module.exports;
  };
  // The generated modules import each other as `./dtos`, `./<name>.client`: load each once, on first import.
  const generated = Object.keys(files).filter((file) => file.startsWith('src/generated/'));
  const cache = new Map<string, Record<string, unknown>>();
  const local: Record<string, unknown> = {};
  for (const file of generated) {
    const id = `./${file.slice('src/generated/'.length, -'.ts'.length)}`;
    Object.defineProperty(local, id, { get: () => cache.get(id) ?? (cache.set(id, run(files[file], local)), cache.get(id)), enumerable: true });
  }
  if (files[generatedToolsetFile(name)] !== undefined) return run(files[generatedToolsetFile(name)], { './dtos': run(files[GENERATED_DTOS]) });
  return Object.assign({}, ...generated.filter((file) => file.endsWith('.toolset.ts')).map((file) => local[`./${file.slice('src/generated/'.length, -'.ts'.length)}`]));
}
