import type { Change } from './change';
import { RULES, type Severity } from './rules';
import { requiredBump } from './version-check';
import { unescapeKey } from '../utils/json-pointer';

const ORDER: readonly Severity[] = ['breaking', 'dangerous', 'safe'];

/**
 * One line per change, breaking first: the tool, where, what, the rule and what it means, e.g.
 * `whoami: output /properties/account removed (output-property-removed, breaking): clients that
 * read 'account' will break. Restore it, or accept it with --update and bump the major version.`
 * Changed text follows on `was:` and `now:` lines, in full.
 */
export function formatChanges(changes: readonly Change[], snapshotVersion: string): string[] {
  const breakingBump = requiredBump(snapshotVersion, 'major');
  const bumpAdvice = `bump the ${breakingBump.level} version (to ${breakingBump.next})`;
  const lines: string[] = [];
  for (const severity of ORDER) {
    for (const c of changes.filter((candidate) => candidate.severity === severity)) {
      const rule = RULES[c.rule];
      const propertySegment = /\/properties\/([^/]+)$/.exec(c.path)?.[1];
      const property = propertySegment === undefined ? undefined : unescapeKey(propertySegment);
      const why = rule.why.replace('{it}', property === undefined ? 'it' : `'${property}'`);
      const fix = 'fix' in rule ? ` ${rule.fix}, or accept it with --update and ${bumpAdvice}.` : '';
      const where = c.site === 'tool' ? (c.path ? c.path.slice(1) : 'tool') : c.site === 'group' ? `group${c.path ? ` ${c.path.slice(1)}` : ''}` : `${c.site}${c.path ? ` ${c.path}` : ''}`;
      lines.push(`${c.tool}: ${where} ${c.summary} (${c.rule}, ${severity}): ${why}.${fix}`);
      if (c.was !== undefined || c.now !== undefined) {
        lines.push(`    was: ${c.was === undefined ? '(none)' : JSON.stringify(c.was)}`);
        lines.push(`    now: ${c.now === undefined ? '(none)' : JSON.stringify(c.now)}`);
      }
    }
  }
  return lines;
}

/** `1 breaking, 2 safe` */
export function countBySeverity(changes: readonly Change[]): string {
  return ORDER.map((severity) => [severity, changes.filter((c) => c.severity === severity).length] as const)
    .filter(([, count]) => count > 0)
    .map(([severity, count]) => `${count} ${severity}`)
    .join(', ');
}
