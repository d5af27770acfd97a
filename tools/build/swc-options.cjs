// One swc configuration for Jest and for builds: legacy decorators with design:type metadata
// (which esbuild would drop), CommonJS output, Node 20 syntax.
module.exports = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
    target: 'es2022',
    keepClassNames: true,
  },
  module: { type: 'commonjs' },
};
