import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RULES } from '../../src/contract/rules';
import { requiredBump } from '../../src/contract/version-check';

describe('the rules table of docs/evolving-contracts.md', () => {
  const readme = readFileSync(join(__dirname, '../../../../docs/evolving-contracts.md'), 'utf-8');
  const rows = [...readme.matchAll(/^\| `([a-z-]+)` \| (\w+) \| (\w+) \| (\w+) \| (.+) \|$/gm)].map(([, id, severity, bump, bumpWhileZero, why]) => ({ id, severity, bump, bumpWhileZero, why }));

  it('lists every rule the comparer applies, and no other, with its severity, bumps and meaning', () => {
    expect(rows.map((row) => row.id)).toEqual(Object.keys(RULES));
    for (const row of rows) {
      const rule = RULES[row.id as keyof typeof RULES];
      expect(row).toEqual({
        id: row.id,
        severity: rule.severity,
        bump: rule.bump,
        bumpWhileZero: requiredBump('0.1.0', rule.bump).level,
        why: rule.why.replace('{it}', 'it'),
      });
    }
  });
});
