import { inc, parse, type SemVer } from 'semver';
import type { Change } from './change';
import { RULES, type Bump } from './rules';

const LEVELS: readonly Bump[] = ['patch', 'minor', 'major'];

export interface VersionVerdict {
  ok: boolean;
  /** The smallest bump the changes need over the snapshot's version (none when nothing changed). */
  needed?: Bump;
  /** The smallest version that satisfies it, e.g. `0.2.0`. */
  next?: string;
  /** One line for the report: what the version says and, when it is short, what to set. */
  message: string;
}

/**
 * Whether the package version says what changed for clients since the snapshot: a breaking
 * change needs a major bump, an addition or a dangerous change a minor one, anything else a
 * patch. Before 1.0.0 each moves down a level (breaking → minor, addition → patch), as `^0.x`
 * ranges read versions: a caret range on 0.1.0 takes 0.1.1 but not 0.2.0.
 */
export function checkVersion(snapshotVersion: string, version: string, changes: readonly Change[], packageFile: string): VersionVerdict {
  const was = parse(snapshotVersion);
  const now = parse(version);
  if (!now) return { ok: false, message: `"version": ${JSON.stringify(version)} in ${packageFile} is not a semantic version (x.y.z); set one.` };
  if (!was) return { ok: false, message: `The snapshot's "version": ${JSON.stringify(snapshotVersion)} is not a semantic version; restore contract.json from git.` };
  if (now.compare(was) < 0) return { ok: false, message: `${packageFile} says ${version}, older than the snapshot's ${snapshotVersion}: versions never go back; set ${snapshotVersion} or later.` };
  const stated = changes.map((c) => LEVELS.indexOf(RULES[c.rule].bump));
  if (stated.length === 0) return { ok: true, message: `version ${version}` };
  const { level: needed, next } = requiredBump(was, LEVELS[Math.max(...stated)]);
  if (bumped(was, now, needed)) return { ok: true, needed, next, message: `version ${snapshotVersion} → ${version}: covers the changes (they need ${next} or later)` };
  return {
    ok: false,
    needed,
    next,
    message: `version ${version} does not cover these changes: they need a ${needed} bump over ${snapshotVersion}. Set "version": "${next}" in ${packageFile}.`,
  };
}

/** The bump a rule's level needs over `was` (one level down before 1.0.0), and the smallest version that makes it. */
export function requiredBump(was: SemVer | string, ruleLevel: Bump): { level: Bump; next: string } {
  const version = typeof was === 'string' ? parse(was) : was;
  if (!version) return { level: ruleLevel, next: 'a semantic version' };
  const level = version.major > 0 ? ruleLevel : ruleLevel === 'major' ? 'minor' : 'patch';
  return { level, next: nextVersion(version, level) };
}

/** Whether `now` is at least one `level` above `was`; a pre-release of the next version counts (2.0.0-rc.1 is a major bump). */
function bumped(was: SemVer, now: SemVer, level: Bump): boolean {
  if (level === 'major') return now.major > was.major;
  if (level === 'minor') return now.major > was.major || (now.major === was.major && now.minor > was.minor);
  return now.compare(was) > 0 && !(now.major === was.major && now.minor === was.minor && now.patch === was.patch);
}

/** The smallest release at `level` above `was`, as semver counts it; a pre-release is first released (2.0.0-rc.1 → 2.0.0 for a major). */
function nextVersion(was: SemVer, level: Bump): string {
  return inc(was.version, level)!;
}
