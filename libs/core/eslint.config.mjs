import { fileURLToPath } from 'node:url';
import baseConfig from '../../eslint.config.mjs';
import layers from './eslint/layers-rule.cjs';

/** The layers of core, lowest first: a folder imports only from folders before it (README: Architecture). */
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
