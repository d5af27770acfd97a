import { fileURLToPath } from 'node:url';
import baseConfig from '../../eslint.config.mjs';
import layers from './eslint/layers-rule.cjs';

/** The layers of core, lowest first: a folder imports only from folders before it (docs/architecture.md). */
export const CORE_LAYERS = [
  'helpers',
  'errors',
  'wire',
  'types',
  'metadata',
  'decorators',
  'results',
  'schema',
  'compiled',
  'gate',
  'selection',
  'context',
  'telemetry',
  // The per-call runtime: what every member shares, then the tools/call pipeline beside the other
  // members (prompts, resources, completion, subscriptions), then tasks (a tool call run in the
  // background), then build-server.ts composing them.
  'server/logging',
  'server/checks',
  'server/request',
  ['server/tools', 'server/members'],
  'server/tasks',
  'server',
  'interceptors',
  'catalog-page',
  'transport',
  'transport/guards',
  'transport/auth',
  ['transport/http', 'transport/stdio'],
  'app',
];

export default [
  ...baseConfig,
  {
    files: ['src/**/*.ts'],
    plugins: { core: layers },
    rules: {
      'core/layers': ['error', { root: fileURLToPath(new URL('./src', import.meta.url)), order: CORE_LAYERS }],
      // A function this branchy is several functions: split it.
      complexity: ['error', 15],
    },
  },
];
