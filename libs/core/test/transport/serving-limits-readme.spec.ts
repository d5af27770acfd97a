import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_SERVING_LIMITS, LIMIT_VARIABLES } from '../../src';

const readme = readFileSync(join(__dirname, '../../../../docs/serving-and-deploying.md'), 'utf8');

describe('the table of serving limits in docs/serving-and-deploying.md', () => {
  it.each(LIMIT_VARIABLES.map(([key, variable]) => [variable, key] as const))('lists %s with its default', (variable, key) => {
    const row = readme.split('\n').find((line) => line.startsWith('|') && line.includes(`| \`${variable}\` |`));
    expect(row).toBeDefined();
    expect(row).toMatch(new RegExp(`\\|[^|]*\\b${DEFAULT_SERVING_LIMITS[key]}\\b[^|]*\\| \`${variable}\` \\|`));
  });
});
