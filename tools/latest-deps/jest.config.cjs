// Core's own tests, against the newest class-validator, class-transformer, TypeBox and MCP server SDK (run.sh).
const path = require('node:path');
const core = require('../../libs/core/jest.config.cjs');

module.exports = {
  ...core,
  rootDir: path.resolve(__dirname, '../../libs/core'),
  displayName: 'core (newest class-validator, class-transformer, TypeBox, @modelcontextprotocol/server)',
  resolver: path.join(__dirname, 'resolver.cjs'),
  // Only Jest's own report: this run is not part of the workspace's count.
  reporters: ['default'],
};
