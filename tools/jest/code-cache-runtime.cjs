// Jest's module loader, with each module's compiled code shared between the test files of one
// worker. Jest compiles every module of every test file anew (test files share no modules) with
// vm.compileFunction, which V8's compilation cache does not serve: loading @toolsets/core spent
// about 145 ms per file in V8's compiler alone, compiling the same files with the same source each
// time, and TypeScript's 9 MB compiler again in every test file that loads it.
//
// Here each module is compiled as a `vm.Script` holding one function expression, with Jest's own
// options, and run in the test file's context as Jest's compile would. Same source, same file
// name, same options: V8's in-process compilation cache hands every later test file the script
// already compiled, its lazily compiled functions included. Only code is shared: each test file
// runs it anew, with its own module state. The source starts a line lower (`lineOffset: -1` puts
// it back), so stack traces and source maps read as before. Jest's dynamic import callback is
// passed on: without --experimental-vm-modules, Node answers every dynamic import of a script
// with the same refusal whichever callback it has (one fixed marker, so the cache still serves
// it); with the flag, each script keeps Jest's own callback (and is then compiled anew).
// Nothing else in Jest changes. TOOLSETS_JEST_NO_CODE_CACHE=1 turns it off. See docs/contributing.md.
const vm = require('node:vm');

if (process.env.TOOLSETS_JEST_NO_CODE_CACHE !== '1') {
  const compileFunction = vm.compileFunction;
  vm.compileFunction = function compileShared(code, params, options) {
    if (options?.parsingContext === undefined || options.filename === undefined) return compileFunction(code, params, options);
    const script = new vm.Script(`(function (${params.join(', ')}) {\n${code}\n})`, {
      filename: options.filename,
      lineOffset: -1,
      importModuleDynamically: options.importModuleDynamically,
    });
    return script.runInContext(options.parsingContext);
  };
}

module.exports = require('jest-runtime');
