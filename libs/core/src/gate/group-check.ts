import type { CompiledGroup, CompiledToolset } from '../compiled/tool-catalog';
import type { ContractViolation } from '../errors/contract-violation';
import { GroupClashError } from '../errors/group-clash.error';
import { GroupCycleError } from '../errors/group-cycle.error';
import { InvalidGroupError } from '../errors/invalid-group.error';
import type { ToolGroup } from '../metadata/tool-group';

/** Group names travel in `?toolsets=` and `X-MCP-Toolsets`, comma-separated, like toolset names. */
const GROUP_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * The groups the toolsets belong to (`@Toolset({ groups })`), and the groups those belong to,
 * checked: a name a client can send, a description, one definition per name, no name a toolset has,
 * no group inside itself. Each problem is reported once, at the first toolset that brings it in.
 */
export function compileGroups(toolsets: readonly CompiledToolset[], declared: ReadonlyMap<string, readonly unknown[]>, report: (violation: ContractViolation) => void): CompiledGroup[] {
  const toolsetNames = new Set(toolsets.map((toolset) => toolset.name));
  const definitions = new Map<string, ToolGroup>();
  const reported = new Set<string>();
  const once = (key: string, violation: () => ContractViolation) => {
    if (!reported.has(key)) report(violation());
    reported.add(key);
  };
  // Each definition reachable from a toolset, checked on its own.
  const visit = (toolset: string, group: unknown, path: readonly string[]): void => {
    if (!isGroup(group)) return once(`not-a-group:${toolset}`, () => new InvalidGroupError(toolset, `@Toolset({ groups }) holds ${describe(group)}, not a group.`, "make each entry with defineGroup({ name, description }) from '@toolsets/core'."));
    const { name } = group;
    if (path.includes(name)) return once(`cycle:${[...path, name].join('>')}`, () => new GroupCycleError(toolset, [...path.slice(path.indexOf(name)), name]));
    const known = definitions.get(name);
    if (known && known !== group && !sameDefinition(known, group)) return once(`clash:${name}`, () => new GroupClashError(toolset, name, 'another group definition'));
    if (known) return;
    definitions.set(name, group);
    if (!GROUP_NAME.test(name)) once(`name:${name}`, () => new InvalidGroupError(toolset, `The group name ${JSON.stringify(String(name).slice(0, 80))} cannot be sent in ?toolsets=.`, 'use letters, digits, dots, hyphens and underscores (up to 64), starting with a letter or digit.'));
    if (toolsetNames.has(name)) once(`clash:${name}`, () => new GroupClashError(toolset, name, 'a toolset'));
    if (typeof group.description !== 'string' || group.description.trim() === '') {
      once(`description:${name}`, () => new InvalidGroupError(toolset, `The group '${name}' has no description.`, "say what the group is for, for a model choosing where to look: defineGroup({ name, description: 'Everything about GitHub: issues, pulls, repositories.' })."));
    }
    for (const parent of group.groups ?? []) visit(toolset, parent, [...path, name]);
  };
  for (const toolset of toolsets) for (const group of declared.get(toolset.name) ?? []) visit(toolset.name, group, []);

  const members = new Map<string, Set<string>>();
  for (const toolset of toolsets) {
    for (const group of ancestors(declared.get(toolset.name) ?? [], definitions)) {
      if (!members.has(group)) members.set(group, new Set());
      members.get(group)!.add(toolset.name);
    }
  }
  return [...definitions.values()].map((group) => ({
    name: group.name,
    description: group.description,
    parents: (group.groups ?? []).filter(isGroup).map((parent) => parent.name),
    toolsets: toolsets.map((toolset) => toolset.name).filter((name) => members.get(group.name)?.has(name)),
  }));
}

/** Every group `groups` reach, by name, each once (a cycle, already reported, ends the walk). */
function ancestors(groups: readonly unknown[], definitions: ReadonlyMap<string, ToolGroup>): Set<string> {
  const seen = new Set<string>();
  const walk = (list: readonly unknown[]) => {
    for (const group of list) {
      if (!isGroup(group) || seen.has(group.name) || !definitions.has(group.name)) continue;
      seen.add(group.name);
      walk(definitions.get(group.name)!.groups ?? []);
    }
  };
  walk(groups);
  return seen;
}

function isGroup(value: unknown): value is ToolGroup {
  return typeof value === 'object' && value !== null && typeof (value as ToolGroup).name === 'string' && Array.isArray((value as ToolGroup).groups ?? []);
}

/** The names of the groups in `declared` (`@Toolset({ groups })`): a toolset's parents. Anything else is reported by compileGroups. */
export function groupNames(declared: readonly unknown[]): string[] {
  return declared.filter(isGroup).map((group) => group.name);
}

/** Two equal definitions (a library built twice into one app) are one group. */
function sameDefinition(a: ToolGroup, b: ToolGroup): boolean {
  return a.description === b.description && JSON.stringify((a.groups ?? []).map((g) => g.name)) === JSON.stringify((b.groups ?? []).map((g) => g.name));
}

function describe(value: unknown): string {
  if (typeof value === 'string') return `the string ${JSON.stringify(value.slice(0, 60))}`;
  return value === null || value === undefined ? String(value) : typeof value;
}
