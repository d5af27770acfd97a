// Resolves the libraries whose private internals core relies on from the folder
// LATEST_DEPS_DIR (where run.sh installed their newest releases), everything else as usual.
const path = require('node:path');

const LIBRARIES = ['class-validator', 'class-transformer', 'typebox', '@modelcontextprotocol/server'];

module.exports = (request, options) => {
  const parts = request.split('/');
  const name = request.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  if (LIBRARIES.includes(name) && process.env.LATEST_DEPS_DIR) {
    return options.defaultResolver(request, { ...options, basedir: path.join(process.env.LATEST_DEPS_DIR, 'node_modules') });
  }
  return options.defaultResolver(request, options);
};
