// Preloaded (`node --require`, through NODE_OPTIONS the Jest preset sets) into the processes the
// tests start: the built apps, the contract executors, the generated-catalog children. Each of them
// loads @toolsets/core, and Node loads TypeBox as 683 ES modules and class-validator as about 320
// CommonJS ones: 0.36 and 0.21 CPU-seconds of a process's start, before it serves anything. Here
// a `require` that Node resolves to one of those packages' own entry files, in this workspace's
// node_modules, loads the same package bundled into a few CommonJS files instead (the bundles the
// Jest preset makes, tools/jest/bundled-packages.cjs): 0.08 and 0.11 CPU-seconds. The code is the
// packages' own; only how it is loaded changes. Anything else resolves as Node resolves it: another
// workspace's node_modules (an adoption test's), another package, an `import`. The packed packages
// and the adoption workspaces load the packages as a user's install does; so do `npm start`, the
// conformance suites and `TOOLSETS_JEST_UNBUNDLED=1`.
const fs = require('node:fs');
const Module = require('node:module');

const dir = process.env.TOOLSETS_BUNDLED_PACKAGES;
let redirects;
try {
  // { "<the file Node resolves>": "<its bundled entry>" }, written with the bundles.
  redirects = dir ? new Map(Object.entries(JSON.parse(fs.readFileSync(`${dir}/redirects.json`, 'utf-8')))) : undefined;
} catch {
  redirects = undefined;
}

if (redirects && redirects.size > 0) {
  const resolve = Module._resolveFilename;
  Module._resolveFilename = function resolveBundled(request, ...rest) {
    const file = resolve.call(this, request, ...rest);
    return redirects.get(file) ?? file;
  };
}
