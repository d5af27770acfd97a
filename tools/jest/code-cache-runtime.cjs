// Jest's module loader, with V8's code cache between the test files of one worker. Jest compiles
// every module of every test file anew (test files share no modules), with vm.compileFunction and
// no code cache: loading @toolsets/core spent about 145 ms per file in V8's compiler alone, compiling
// the same files with the same source each time. Here the first compile of a file in a worker
// keeps V8's cached data, and a later compile of the same file with the same source passes it back:
// V8 checks it (its version, flags and the source) and compiles from scratch if it does not fit.
// Nothing else in Jest changes. TOOLSETS_JEST_NO_CODE_CACHE=1 turns it off. See docs/contributing.md.
const vm = require('node:vm');

if (process.env.TOOLSETS_JEST_NO_CODE_CACHE !== '1') {
  const compileFunction = vm.compileFunction;
  /** By file name: the source compiled, and V8's cached data for it. */
  const compiled = new Map();
  vm.compileFunction = function compileWithCodeCache(code, params, options) {
    const filename = options?.filename;
    const known = filename === undefined ? undefined : compiled.get(filename);
    if (known !== undefined && known.code === code) {
      const fn = compileFunction(code, params, { ...options, cachedData: known.data });
      if (fn.cachedDataRejected) compiled.delete(filename);
      return fn;
    }
    const fn = compileFunction(code, params, { ...options, produceCachedData: true });
    if (filename !== undefined && fn.cachedDataProduced && fn.cachedData) compiled.set(filename, { code, data: fn.cachedData });
    return fn;
  };
}

module.exports = require('jest-runtime');
