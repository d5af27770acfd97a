import { isDeepStrictEqual } from 'node:util';
import { appendPointer as pointer } from '../utils/json-pointer';
import { change, type Change } from './change';
import { compareSchemas, show, type JsonSchema } from './compare-schema';
import type { SnapshotRecords, ToolEntry, ViewRecord } from './snapshot';

/** The fields of a tools/list entry this comparer reads; any other field that changes is reported as unknown. */
const TOOL_FIELDS = new Set(['name', 'origin', 'title', 'description', 'annotations', 'requiredScopes', 'credentialHeaders', 'execution', 'inputSchema', 'outputSchema', 'view']);

/**
 * Every difference between two catalogs (the snapshot and the live one), classified by rule,
 * in tool-name order. A tool gone under its old name is a rename when a new tool has its origin
 * (`@Tool({ origin })`: a generated tool's API operation, else its toolset class and method), or,
 * in a snapshot that records no origins, the same schemas. Every change that came with it (its
 * arguments, its result, description, hints, scopes) is reported under the rename. Schema titles
 * never count for a renamed tool: a generated library names its classes after its tools, so a
 * renamed tool's `GetListsArgs` is `ListAudiencesArgs`.
 */
export function compareCatalogs(before: readonly ToolEntry[], after: readonly ToolEntry[], recorded: SnapshotRecords = { credentialHeaders: true, groups: true }): Change[] {
  const beforeByName = new Map(before.map((tool) => [tool.name, tool]));
  const afterNames = new Set(after.map((tool) => tool.name));
  const added = after.filter((tool) => !beforeByName.has(tool.name));
  const removed = before.filter((tool) => !afterNames.has(tool.name));
  const changes: Change[] = [];
  const rename = (old: ToolEntry, index: number) => {
    const [renamed] = added.splice(index, 1);
    changes.push(change(old.name, 'tool', '', 'tool-renamed', `renamed to '${renamed!.name}'`));
    const untitled = (tool: ToolEntry): ToolEntry => ({ ...tool, inputSchema: withoutTitles(tool.inputSchema) as JsonSchema, ...(tool.outputSchema && { outputSchema: withoutTitles(tool.outputSchema) as JsonSchema }) });
    // Named by both names, so a reviewer reads `list_id` becoming `audience_id` as part of the rename.
    const under = `${renamed!.name} (was ${old.name})`;
    changes.push(...compareTool({ ...untitled(old), name: renamed!.name }, untitled(renamed!), recorded).map((c) => ({ ...c, tool: under })));
  };
  // First by origin, which survives any change of schema; then, for what is left, by schema.
  const unpaired: ToolEntry[] = [];
  for (const old of removed) {
    const index = old.origin === undefined ? -1 : added.findIndex((tool) => tool.origin === old.origin);
    if (index >= 0) rename(old, index);
    else unpaired.push(old);
  }
  for (const old of unpaired) {
    const index = added.findIndex((tool) => (old.origin === undefined || tool.origin === undefined) && sameContract(tool.inputSchema, old.inputSchema) && sameContract(tool.outputSchema, old.outputSchema));
    if (index >= 0) rename(old, index);
    else changes.push(change(old.name, 'tool', '', 'tool-removed', 'removed'));
  }
  for (const tool of added) changes.push(change(tool.name, 'tool', '', 'tool-added', 'added'));
  for (const tool of after) {
    const old = beforeByName.get(tool.name);
    if (old) changes.push(...compareTool(old, tool, recorded));
  }
  // A renamed tool's changes right after its rename line, which sorts under the old name.
  const key = (c: Change) => / \(was (.+)\)$/.exec(c.tool)?.[1] ?? c.tool;
  return changes.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

function compareTool(before: ToolEntry, after: ToolEntry, recorded: SnapshotRecords): Change[] {
  const name = after.name;
  const changes: Change[] = [];
  if (before.description !== after.description) {
    changes.push(change(name, 'tool', '/description', 'tool-description-changed', 'changed', { was: before.description, now: after.description }));
  }
  if (before.title !== after.title) changes.push(change(name, 'tool', '/title', 'tool-title-changed', `${show(before.title)} → ${show(after.title)}`));
  const annotations = new Set([...Object.keys(before.annotations ?? {}), ...Object.keys(after.annotations ?? {})]);
  for (const key of annotations) {
    const was = before.annotations?.[key];
    const now = after.annotations?.[key];
    if (!isDeepStrictEqual(was, now)) changes.push(change(name, 'tool', pointer('/annotations', key), 'annotation-changed', `${show(was)} → ${show(now)}`));
  }
  changes.push(...compareScopes(name, before.requiredScopes ?? [], after.requiredScopes ?? []));
  // A snapshot written before credential headers were recorded says nothing about them: no change to report.
  if (recorded.credentialHeaders) changes.push(...compareCredentialHeaders(name, before.credentialHeaders ?? [], after.credentialHeaders ?? []));
  changes.push(...compareTaskSupport(name, taskSupportOf(before), taskSupportOf(after)));
  changes.push(...compareViews(name, before.view, after.view));
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (!TOOL_FIELDS.has(key) && !isDeepStrictEqual(before[key], after[key])) {
      changes.push(change(name, 'tool', pointer('', key), 'keyword-changed', `${show(before[key])} → ${show(after[key])}`));
    }
  }
  changes.push(...compareSchemas(name, 'input', before.inputSchema, after.inputSchema));
  changes.push(...compareSchemas(name, 'output', before.outputSchema ?? {}, after.outputSchema ?? {}));
  return changes;
}

/** The OAuth scopes a call needs (`@RequireScopes`): one more shuts out callers; one fewer lets more in. */
function compareScopes(name: string, before: readonly string[], after: readonly string[]): Change[] {
  return [
    ...after.filter((scope) => !before.includes(scope)).map((scope) => change(name, 'tool', '/requiredScopes', 'scope-required', `now needs ${scope}`)),
    ...before.filter((scope) => !after.includes(scope)).map((scope) => change(name, 'tool', '/requiredScopes', 'scope-dropped', `no longer needs ${scope}`)),
  ];
}

/** The credential headers a call may read: one more is a header every client must now send; one fewer, a header it may stop sending. */
function compareCredentialHeaders(name: string, before: readonly string[], after: readonly string[]): Change[] {
  return [
    ...after.filter((header) => !before.includes(header)).map((header) => change(name, 'tool', '/credentialHeaders', 'credential-header-added', `now reads the credential header ${header}`)),
    ...before.filter((header) => !after.includes(header)).map((header) => change(name, 'tool', '/credentialHeaders', 'credential-header-dropped', `no longer reads the credential header ${header}`)),
  ];
}

type TaskSupport = 'none' | 'optional' | 'required';

/** `execution.taskSupport` (`@Tool({ task })`); `forbidden` and absent alike mean never a task. */
function taskSupportOf(tool: ToolEntry): TaskSupport {
  const support = (tool['execution'] as { taskSupport?: unknown } | undefined)?.taskSupport;
  return support === 'optional' || support === 'required' ? support : 'none';
}

/** How a tool runs as a task: required shuts out clients without tasks; none makes task clients wait on a request. */
function compareTaskSupport(name: string, before: TaskSupport, after: TaskSupport): Change[] {
  if (before === after) return [];
  const detail = `task support ${before} → ${after}`;
  if (after === 'required') return [change(name, 'tool', '/execution/taskSupport', 'task-became-required', detail)];
  if (after === 'none') return [change(name, 'tool', '/execution/taskSupport', 'task-support-removed', detail)];
  return [change(name, 'tool', '/execution/taskSupport', before === 'required' ? 'task-became-optional' : 'task-support-added', detail)];
}

const ALL_CALLERS = ['model', 'app'];

/** A tool's MCP Apps view: whether it has one, where, what it may reach, and who may call the tool. */
function compareViews(name: string, before: ViewRecord | undefined, after: ViewRecord | undefined): Change[] {
  if (!before && !after) return [];
  if (!before) return [change(name, 'tool', '/view', 'view-added', `shows its result in ${after!.uri}`)];
  if (!after) return [change(name, 'tool', '/view', 'view-removed', `no longer shows its result in ${before.uri}`)];
  const changes: Change[] = [];
  if (before.uri !== after.uri) changes.push(change(name, 'tool', '/view/uri', 'view-uri-changed', `${before.uri} → ${after.uri}`));
  for (const list of new Set([...Object.keys(before.csp ?? {}), ...Object.keys(after.csp ?? {})])) {
    const was = before.csp?.[list] ?? [];
    const now = after.csp?.[list] ?? [];
    for (const origin of now.filter((o) => !was.includes(o))) changes.push(change(name, 'tool', pointer('/view/csp', list), 'view-csp-widened', `may now reach ${origin} (${list})`));
    for (const origin of was.filter((o) => !now.includes(o))) changes.push(change(name, 'tool', pointer('/view/csp', list), 'view-csp-narrowed', `no longer reaches ${origin} (${list})`));
  }
  const wasPermissions = Object.keys(before.permissions ?? {});
  const nowPermissions = Object.keys(after.permissions ?? {});
  for (const permission of nowPermissions.filter((p) => !wasPermissions.includes(p))) changes.push(change(name, 'tool', '/view/permissions', 'view-permission-added', `asks for ${permission}`));
  const wasCallers = before.visibility ?? ALL_CALLERS;
  const nowCallers = after.visibility ?? ALL_CALLERS;
  const lost = wasCallers.filter((who) => !nowCallers.includes(who));
  const gained = nowCallers.filter((who) => !wasCallers.includes(who));
  if (lost.length > 0) changes.push(change(name, 'tool', '/view/visibility', 'view-visibility-narrowed', `no longer callable by ${lost.join(' and ')}`));
  if (gained.length > 0) changes.push(change(name, 'tool', '/view/visibility', 'view-visibility-widened', `now callable by ${gained.join(' and ')}`));
  const display = (record: ViewRecord) => [record.domain, record.prefersBorder, Object.keys(record.permissions ?? {}).sort()];
  if (changes.length === 0 && !isDeepStrictEqual(display(before), display(after))) {
    changes.push(change(name, 'tool', '/view', 'view-display-changed', `border ${show(before.prefersBorder)} → ${show(after.prefersBorder)}, domain ${show(before.domain)} → ${show(after.domain)}`));
  }
  return changes;
}

/** Whether two schemas say the same to a client, their titles apart (names of the classes they were made from). */
function sameContract(a: unknown, b: unknown): boolean {
  return isDeepStrictEqual(withoutTitles(a), withoutTitles(b));
}

function withoutTitles(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutTitles);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).filter(([key, child]) => !(key === 'title' && typeof child === 'string')).map(([key, child]) => [key, withoutTitles(child)]));
}
