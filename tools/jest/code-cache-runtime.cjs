// Jest's module loader, with each module's compiled code shared between the test files of one
// worker. Jest compiles every module of every test file anew (test files share no modules), with
// vm.compileFunction and a fresh `importModuleDynamically` callback each time, so V8 cannot reuse
// anything: loading @toolsets/core spent about 145 ms per file in V8's compiler alone, compiling the
// same files with the same source each time.
//
// Here a module whose source has no `import(` is compiled as a `vm.Script` holding one function
// expression, with no dynamic import callback (it has no dynamic import), and run in the test
// file's context as Jest's own compile would. Same source, same file name, same options: V8's
// in-process compilation cache returns the script already compiled,
// its lazily compiled functions included, for every later test file. The source starts a line
// lower (`lineOffset: -1` puts it back), so stack traces and source maps read as before.
// A module with `import(` keeps Jest's own compile, so its dynamic imports go through Jest's
// loader as they would without this file (V8's cached data is no way around it: Node 20 drops a
// script's dynamic import callback when the script is built from cached data).
// Nothing else in Jest changes. TOOLSETS_JEST_NO_CODE_CACHE=1 turns it off. See docs/contributing.md.
const vm = require('node:vm');

if (process.env.TOOLSETS_JEST_NO_CODE_CACHE !== '1') {
  const compileFunction = vm.compileFunction;
  const dynamicImport = /\bimport\s*\(/;
  vm.compileFunction = function compileShared(code, params, options) {
    if (options?.parsingContext === undefined || options.filename === undefined || dynamicImport.test(code)) return compileFunction(code, params, options);
    const script = new vm.Script(`(function (${params.join(', ')}) {\n${code}\n})`, {
      filename: options.filename,
      lineOffset: -1,
    });
    return script.runInContext(options.parsingContext);
  };
}

module.exports = require('jest-runtime');
