import { change, type Change } from './change';
import type { GroupEntry } from './snapshot';

/**
 * Every difference between two catalogs' groups (the snapshot's and the live one's), in name
 * order: a group gone (clients select groups by name) or new, its description, and the larger
 * groups it belongs to.
 */
export function compareGroups(before: readonly GroupEntry[], after: readonly GroupEntry[]): Change[] {
  const was = new Map(before.map((group) => [group.name, group]));
  const now = new Map(after.map((group) => [group.name, group]));
  const changes: Change[] = [];
  for (const name of [...new Set([...was.keys(), ...now.keys()])].sort()) {
    const old = was.get(name);
    const group = now.get(name);
    if (!group) changes.push(change(name, 'group', '', 'group-removed', 'removed'));
    else if (!old) changes.push(change(name, 'group', '', 'group-added', 'added'));
    else {
      if (old.description !== group.description) changes.push(change(name, 'group', '/description', 'group-description-changed', 'changed', { was: old.description, now: group.description }));
      for (const parent of (group.groups ?? []).filter((g) => !(old.groups ?? []).includes(g))) changes.push(change(name, 'group', '/groups', 'group-joined', `now belongs to '${parent}'`));
      for (const parent of (old.groups ?? []).filter((g) => !(group.groups ?? []).includes(g))) changes.push(change(name, 'group', '/groups', 'group-left', `no longer belongs to '${parent}'`));
    }
  }
  return changes;
}
