// An ESLint rule that keeps a source tree's folders in layers: a file may import from its own
// folder and from folders below it in `order`, never from one above it. `import type` is exempt:
// it leaves no dependency at run time (a decorator's typing may name the classes it decorates).
// Written here rather than taken from eslint-plugin-import-x: its no-restricted-paths has no
// exemption for type-only imports, and resolving TypeScript paths needs a resolver besides.
const path = require('node:path');

/** @type {import('eslint').Rule.RuleModule} */
const layersRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Imports point down the layer order only.' },
    schema: [
      {
        type: 'object',
        properties: {
          root: { type: 'string' },
          order: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] } },
        },
        required: ['root', 'order'],
        additionalProperties: false,
      },
    ],
  },
  create(context) {
    const { root, order } = context.options[0];
    const base = path.resolve(context.cwd, root);
    // Each folder's rank; peers (an inner array) share one and must not import each other.
    const ranks = new Map();
    order.forEach((entry, rank) => (Array.isArray(entry) ? entry : [entry]).forEach((folder) => ranks.set(folder, rank)));
    const folders = [...ranks.keys()].sort((a, b) => b.length - a.length);
    const layerOf = (file) => {
      const relative = path.relative(base, file).split(path.sep).join('/');
      if (relative.startsWith('..')) return undefined;
      return folders.find((folder) => relative === folder || relative.startsWith(`${folder}/`));
    };
    const from = layerOf(context.filename);
    if (from === undefined) return {};
    const check = (node) => {
      const source = node.source?.value;
      if (typeof source !== 'string' || !source.startsWith('.') || node.importKind === 'type' || node.exportKind === 'type') return;
      if (node.specifiers?.length > 0 && node.specifiers.every((s) => s.importKind === 'type' || s.exportKind === 'type')) return;
      const to = layerOf(path.resolve(path.dirname(context.filename), source));
      // A child folder may import its parent's files only where the parent is ranked below it
      // (transport/http from transport), never where it composes them (server/tasks from server).
      if (to === undefined || to === from) return;
      const [rankFrom, rankTo] = [ranks.get(from), ranks.get(to)];
      if (rankTo < rankFrom) return;
      const why = rankTo === rankFrom ? `'${to}' is a peer of '${from}'` : `'${to}' is above '${from}'`;
      context.report({
        node: node.source,
        message: `${why} in the layers (${order.map((e) => (Array.isArray(e) ? e.join(' | ') : e)).join(' → ')}): move what '${from}' needs from '${source}' down to a layer '${from}' may import, or import only its type (\`import type\`).`,
      });
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check };
  },
};

module.exports = { rules: { layers: layersRule } };
