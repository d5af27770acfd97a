import 'reflect-metadata';
import { defineGroup, isolateMetadata, runContractGate, Tool, ToolResult, Toolset, type ToolGroup } from '@toolsets/core';
import { snapshotGroups } from '../../src/contract/catalog-entries';
import { compareGroups } from '../../src/contract/compare-groups';
import { formatChanges } from '../../src/contract/change-report';
import { parseSnapshot, serializeSnapshot, snapshotOf } from '../../src/contract/snapshot';

class Done extends ToolResult {}

/** A catalog of toolsets, each `[name, description, groups]` with one tool, through the real gate. */
function catalogOf(...toolsets: [string, string, ToolGroup[]?][]) {
  const classes = toolsets.map(([name, description, groups], index) => {
    class Generated {
      run(): Done {
        return { message: 'done' };
      }
    }
    Tool({ name: `run_${index}`, description: 'Run.', returns: Done })(Generated.prototype, 'run', Object.getOwnPropertyDescriptor(Generated.prototype, 'run')!);
    Toolset({ name, description, ...(groups && { groups }) })(Generated);
    return Generated;
  });
  return runContractGate('library', classes);
}

describe('groups in the contract snapshot', () => {
  let restore: () => void;
  beforeEach(() => (restore = isolateMetadata()));
  afterEach(() => restore());
  const github = (description = 'Everything about GitHub.') => defineGroup({ name: 'github', description });

  it('records each toolset and each group of toolsets with its description and larger groups, and reads them back', () => {
    const groups = snapshotGroups(catalogOf(['github-pulls', 'Review pull requests.', [github()]], ['github-issues', 'Triage issues.', [github()]]));
    expect(groups).toEqual([
      { name: 'github-pulls', description: 'Review pull requests.', groups: ['github'] },
      { name: 'github-issues', description: 'Triage issues.', groups: ['github'] },
      { name: 'github', description: 'Everything about GitHub.' },
    ]);
    const snapshot = snapshotOf('1.0.0', [], groups);
    const text = serializeSnapshot(snapshot);
    expect(JSON.parse(text)).toMatchObject({ records: ['credentialHeaders', 'groups'], groups: [{ name: 'github' }, { name: 'github-issues' }, { name: 'github-pulls' }] });
    expect(parseSnapshot(text, 'contract.json')).toEqual(snapshot);
  });

  it('classifies a removed group as breaking, a new one as an addition, a new description as a patch, a group leaving a larger one as dangerous', () => {
    const before = snapshotGroups(catalogOf(['github-issues', 'Triage issues.', [github()]], ['github-pulls', 'Review pull requests.', [github()]]));
    const after = snapshotGroups(catalogOf(['github-issues', 'File and triage issues.', [github('GitHub: issues and pull requests.')]], ['github-pulls', 'Review pull requests.'], ['github-actions', 'Run workflows.', [github('GitHub: issues and pull requests.')]]));
    const changes = compareGroups(before, after);
    expect(changes.map((c) => [c.tool, c.rule, c.severity])).toEqual([
      ['github', 'group-description-changed', 'safe'],
      ['github-actions', 'group-added', 'safe'],
      ['github-issues', 'group-description-changed', 'safe'],
      ['github-pulls', 'group-left', 'dangerous'],
    ]);
    const removed = compareGroups(before, snapshotGroups(catalogOf(['github-issues', 'Triage issues.', [github()]])));
    expect(formatChanges(removed, '1.0.0')).toEqual([
      "github-pulls: group removed (group-removed, breaking): clients that select the group (?toolsets=, X-MCP-Toolsets) get a 400, and a client that loads it as a namespace from groups/list finds it gone. Keep the group (keep the toolset name, or a defineGroup of the old name around the new toolsets), or accept it with --update and bump the major version (to 2.0.0).",
    ]);
  });

  it('compares nothing about groups against a snapshot written before they were recorded', () => {
    const old = JSON.parse(serializeSnapshot(snapshotOf('1.0.0', [])));
    expect(old.records).toEqual(['credentialHeaders']);
    expect(parseSnapshot(JSON.stringify(old), 'contract.json').groups).toBeUndefined();
  });
});
