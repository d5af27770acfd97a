import type { ExecutorContext } from '@nx/devkit';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import type * as Core from '@toolsets/core';
import { catalogSize, formatCatalogSize } from '../../contract/catalog-size';
import { snapshotEntries, snapshotGroups } from '../../contract/catalog-entries';
import { compareGroups } from '../../contract/compare-groups';
import { compareCatalogs } from '../../contract/compare-catalogs';
import { countBySeverity, formatChanges } from '../../contract/change-report';
import { SNAPSHOT_FILE, parseSnapshot, serializeSnapshot, snapshotOf, type GroupEntry, type ToolEntry } from '../../contract/snapshot';
import { checkVersion } from '../../contract/version-check';
import { plural, readVersion } from '../../contract/package-version';
import { reportGate } from '../../utils/report-gate';
import type { ContractExecutorSchema } from './schema';
import { flushed } from '../../utils/flushed-output';

/**
 * The contract target: the same startup gate a server runs, over everything a toolset library
 * exports, so a toolset that breaks the contract fails CI even when its own tests pass. Then the
 * live catalog is compared with the committed `contract.json`: breaking changes fail until the
 * version says so and `--update` accepts them.
 */
export default async function contractExecutor(options: ContractExecutorSchema, context: ExecutorContext): Promise<{ success: boolean }> {
  const projectName = context.projectName ?? 'toolset';
  const root = context.projectsConfigurations?.projects[projectName]?.root ?? '.';
  const entry = resolve(context.root, options.entry ?? join(root, 'dist/index.js'));
  if (!existsSync(entry)) {
    console.error(`${entry} does not exist: build the toolset first (nx run ${projectName}:build); the contract target depends on build.`);
    return { success: false };
  }
  // Resolve from the entry itself: the core it loads is the one whose metadata the gate must read.
  // (createRequire also works where Nx loads this executor as an ES module, as Node 22 may.)
  const requireFromEntry = createRequire(entry);
  const core: typeof Core = requireFromEntry('@toolsets/core');
  const toolsets = core.findToolsets(requireFromEntry(entry));
  if (toolsets.length === 0) {
    console.error(`${projectName} exports no @Toolset class from ${entry}; export the toolset class from the library's index.ts.`);
    return { success: false };
  }
  let tools: ToolEntry[] = [];
  let groupEntries: GroupEntry[] = [];
  let listed: ToolEntry[] = [];
  let groups: string[] = [];
  const gate = reportGate(core, () => {
    const catalog = core.runContractGate(projectName, toolsets);
    listed = [...catalog.tools.values()].map((tool) => tool.descriptor as ToolEntry);
    tools = snapshotEntries(catalog);
    groupEntries = snapshotGroups(catalog);
    // A library of several toolsets (an API grouped by tag) is selected group by group: give each group's size.
    if (catalog.toolsets.length > 1) groups = core.formatCatalogSizes(new core.CatalogSlices(catalog).sizes);
    return core.describeCatalog(catalog, { verbose: options.verbose === true || Boolean(process.env['TOOLSETS_DEBUG']) });
  });
  if (!gate.success) return gate;
  console.log(formatCatalogSize(catalogSize(listed)));
  // What a server serving exactly these tools sends as its tools/list ETag.
  console.log(`tools/list ETag: "${core.listHashOf({ tools: listed })}"`);
  if (groups.length > 0) console.log(groups.join('\n'));
  return flushed(compareWithSnapshot({ projectName, workspaceRoot: context.root, projectRoot: root, tools, groups: groupEntries, update: options.update === true }));
}

export interface SnapshotCheck {
  projectName: string;
  workspaceRoot: string;
  projectRoot: string;
  tools: ToolEntry[];
  /** The library's groups, recorded and compared too; an app's curated snapshot has none. */
  groups?: GroupEntry[];
  update: boolean;
  /** The snapshot's file in the project (default `contract.json`). */
  file?: string;
  /** The target that records it (default `contract`). */
  target?: string;
}

/** Compares the served tools with the committed snapshot: breaking changes fail until the version says so and `--update` accepts them. */
export function compareWithSnapshot({ projectName, workspaceRoot, projectRoot, tools, groups, update, file = SNAPSHOT_FILE, target = 'contract' }: SnapshotCheck): { success: boolean } {
  const snapshotFile = join(projectRoot, file);
  const packageFile = join(projectRoot, 'package.json');
  const snapshotPath = join(workspaceRoot, snapshotFile);
  const version = readVersion(join(workspaceRoot, packageFile));
  if (version === undefined) {
    console.error(`${packageFile} has no "version": the contract snapshot records the version that served it. Add "version": "0.1.0".`);
    return { success: false };
  }
  const live = snapshotOf(version, tools, groups);
  const updateCommand = `nx run ${projectName}:${target} --update`;
  if (!existsSync(snapshotPath)) {
    writeFileSync(snapshotPath, serializeSnapshot(live));
    console.log(`\nWrote ${snapshotFile}: ${plural(live.tools.length, 'tool')} at version ${version}. Commit it; from now on this target compares the served catalog with it.`);
    return { success: true };
  }
  let previous;
  try {
    previous = parseSnapshot(readFileSync(snapshotPath, 'utf-8'), snapshotFile);
  } catch (error) {
    console.error((error as Error).message);
    return { success: false };
  }
  // A snapshot written before groups were recorded says nothing about them: no change to report.
  const changes = [...compareCatalogs(previous.tools, live.tools, previous.records), ...(previous.groups && live.groups ? compareGroups(previous.groups, live.groups) : [])];
  if (changes.length === 0 && previous.version === version) {
    // A file from an older plugin records less (no credential headers): --update writes what is recorded now.
    if (update && readFileSync(snapshotPath, 'utf-8') !== serializeSnapshot(live)) {
      writeFileSync(snapshotPath, serializeSnapshot(live));
      console.log(`\nThe catalog matches ${snapshotFile} (version ${version}); rewrote it with everything a snapshot records now. Commit it.`);
      return { success: true };
    }
    console.log(`\nThe catalog matches ${snapshotFile} (version ${version}).`);
    return { success: true };
  }
  const verdict = checkVersion(previous.version, version, changes, packageFile);
  if (changes.length > 0) {
    console.log(`\n${plural(changes.length, 'change')} since ${snapshotFile} (version ${previous.version}): ${countBySeverity(changes)}.`);
    console.log(formatChanges(changes, previous.version).map((line) => `  ${line}`).join('\n'));
  }
  if (update) {
    if (!verdict.ok) return fail(`Not accepted: ${snapshotFile} is unchanged. ${verdict.message}`);
    writeFileSync(snapshotPath, serializeSnapshot(live));
    console.log(`Accepted into ${snapshotFile} at version ${version}. Commit it with the change: its diff is what reviewers read.`);
    return { success: true };
  }
  // Without --update the snapshot must equal what is served, so its diff is always in the review.
  if (!verdict.ok) return fail(`${verdict.message} Then run ${updateCommand}.`);
  if (changes.length === 0) return fail(`${snapshotFile} records version ${previous.version}, and the package is at ${version}: run ${updateCommand} to record it.`);
  const breaking = changes.filter((c) => c.severity === 'breaking').length;
  const kind = breaking > 0 ? `${plural(breaking, 'breaking change')}, which clients that cached the old catalog will feel` : countBySeverity(changes);
  return fail(`${snapshotFile} is out of date (${kind}; ${verdict.message}). Run ${updateCommand} to record it, and commit the diff.`);
}

function fail(message: string): { success: false } {
  console.error(message);
  return { success: false };
}
