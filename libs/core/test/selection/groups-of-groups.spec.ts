import 'reflect-metadata';
import { z } from 'zod';
import { buildServer, ContractError, defineGroup, isolateMetadata, serveHttp, Tool, Toolset, type HttpServerHandle, type ToolGroup } from '../../src';
import { Said } from '../support/grouped-toolsets';
import { connectLegacyClient } from '../support/connect';

const GROUPS = 'io.modelcontextprotocol/groups';
const vendors = defineGroup({ name: 'vendors', description: 'Services of outside vendors.' });
const github = defineGroup({ name: 'github', description: 'Everything about GitHub: issues and pull requests.', groups: [vendors] });

@Toolset({ name: 'github-issues', description: 'File and triage issues.', groups: [github] })
class IssuesToolset {
  @Tool({ description: 'File an issue.', returns: Said })
  fileIssue(): Said {
    return { message: 'filed' };
  }

  @Tool({ description: 'List issues.', returns: Said, annotations: { readOnlyHint: true } })
  listIssues(): Said {
    return { message: 'none' };
  }
}

@Toolset({ name: 'github-pulls', description: 'Review pull requests.', groups: [github] })
class PullsToolset {
  @Tool({ description: 'Merge a pull request.', returns: Said })
  mergePull(): Said {
    return { message: 'merged' };
  }
}

@Toolset({ name: 'clock', description: 'Tell the time.' })
class ClockToolset {
  @Tool({ description: 'The time now.', returns: Said, annotations: { readOnlyHint: true } })
  now(): Said {
    return { message: 'noon' };
  }
}

const server = () => buildServer({ name: 'nested', version: '1', toolsets: [IssuesToolset, PullsToolset, ClockToolset] });

interface Listed {
  name: string;
  description: string;
  _meta?: Record<string, unknown>;
}

/** groups/list and tools/list over raw JSON-RPC on HTTP (2026-07-28), as a client written from SEP-2084 sends them. */
async function ask(url: string, method: 'groups/list' | 'tools/list', headers: Record<string, string> = {}): Promise<{ groups?: Listed[]; tools?: { name: string }[]; error?: { message: string } }> {
  const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'nesting-client', version: '0' }, 'io.modelcontextprotocol/clientCapabilities': {} };
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { _meta: meta } }),
  });
  const answer = JSON.parse(await response.text()) as { result?: object; error?: { message: string } };
  return answer.result ?? { error: answer.error };
}

const groupsResult = z.object({ groups: z.array(z.object({ name: z.string(), description: z.string(), _meta: z.record(z.string(), z.unknown()).optional() }).passthrough()) }).passthrough();

describe('groups of groups (SEP-2084): defineGroup', () => {
  const handles: HttpServerHandle[] = [];
  afterAll(() => Promise.all(handles.map((handle) => handle.close())));
  const serve = async () => {
    const handle = await serveHttp(server(), { port: 0 });
    handles.push(handle);
    return `${handle.origin}/mcp`;
  };

  it('lists the larger groups after the toolsets, each naming the groups it belongs to in _meta, with what the caller sees in it', async () => {
    const url = await serve();
    expect((await ask(url, 'groups/list')).groups).toEqual([
      { name: 'github-issues', description: 'File and triage issues. 2 tools.', _meta: { [GROUPS]: ['github'] } },
      { name: 'github-pulls', description: 'Review pull requests. 1 tool.', _meta: { [GROUPS]: ['github'] } },
      { name: 'clock', description: 'Tell the time. 1 tool.' },
      { name: 'github', description: 'Everything about GitHub: issues and pull requests. 3 tools in 2 groups.', _meta: { [GROUPS]: ['vendors'] } },
      { name: 'vendors', description: 'Services of outside vendors. 3 tools in 2 groups.' },
    ]);
    // Read-only mode and a selection shape the larger groups as they shape the toolsets.
    expect((await ask(`${url}?readonly=1`, 'groups/list')).groups!.map((group) => [group.name, group.description])).toEqual([
      ['github-issues', 'File and triage issues. 1 tool.'],
      ['clock', 'Tell the time. 1 tool.'],
      ['github', 'Everything about GitHub: issues and pull requests. 1 tool in 1 group.'],
      ['vendors', 'Services of outside vendors. 1 tool in 1 group.'],
    ]);
    expect((await ask(`${url}?toolsets=clock`, 'groups/list')).groups!.map((group) => group.name)).toEqual(['clock']);
  });

  it('selects every toolset in a group by the group’s name, in the URL or the header, nested groups included', async () => {
    const url = await serve();
    const names = async (address: string, headers?: Record<string, string>) => (await ask(address, 'tools/list', headers)).tools!.map((tool) => tool.name);
    expect(await names(`${url}?toolsets=github`)).toEqual(['file_issue', 'list_issues', 'merge_pull']);
    expect(await names(`${url}?toolsets=vendors,clock`)).toEqual(['file_issue', 'list_issues', 'merge_pull', 'now']);
    expect(await names(url, { 'x-mcp-toolsets': 'github' })).toEqual(['file_issue', 'list_issues', 'merge_pull']);
    // Both narrow: the URL's group and the header's toolset meet in that toolset.
    expect(await names(`${url}?toolsets=github`, { 'x-mcp-toolsets': 'github-pulls' })).toEqual(['merge_pull']);
    const refused = await fetch(`${url}?toolsets=gitlab`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("No toolset named 'gitlab' on this server. Available toolsets: github-issues, github-pulls, clock; groups of them: github, vendors.");
  });

  it('narrows discovery mode’s search to a larger group as to its toolsets', async () => {
    const url = await serve();
    const call = async (args: Record<string, unknown>) => {
      const response = await fetch(`${url}?mode=discovery`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'search_tools' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_tools', arguments: args, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'c', version: '0' }, 'io.modelcontextprotocol/clientCapabilities': {} } } }),
      });
      return (JSON.parse(await response.text()) as { result: { structuredContent: { tools: { name: string; toolset: string }[] } } }).result.structuredContent.tools;
    };
    const all = await call({ query: 'time issue pull' });
    expect(new Set(all.map((hit) => hit.toolset))).toEqual(new Set(['github-issues', 'github-pulls', 'clock']));
    const inGithub = await call({ query: 'time issue pull', toolsets: ['github'] });
    expect(inGithub.length).toBeGreaterThan(0);
    expect(inGithub.every((hit) => hit.toolset.startsWith('github-'))).toBe(true);
  });

  it('answers the 2025-era SDK client with the same groups over a connection', async () => {
    const legacy = await connectLegacyClient(server());
    const listed = await legacy.request({ method: 'groups/list', params: {} }, groupsResult);
    expect(listed.groups.map((group) => [group.name, group._meta?.[GROUPS]])).toEqual([
      ['github-issues', ['github']],
      ['github-pulls', ['github']],
      ['clock', undefined],
      ['github', ['vendors']],
      ['vendors', undefined],
    ]);
    await legacy.close();
  });
});

describe('the startup gate over groups', () => {
  let restore: () => void;
  beforeEach(() => (restore = isolateMetadata()));
  afterEach(() => restore());

  /** One toolset in `groups`, built into a server: the gate's violations, or none. */
  function violationsOf(groups: readonly unknown[], name = 'notes'): string[] {
    class Joined {
      ping(): Said {
        return { message: 'pong' };
      }
    }
    Tool({ description: 'Ping.', returns: Said })(Joined.prototype, 'ping', Object.getOwnPropertyDescriptor(Joined.prototype, 'ping')!);
    Toolset({ name, description: 'Notes.', groups: groups as ToolGroup[] })(Joined);
    try {
      buildServer({ name: 'gated', version: '1', toolsets: [Joined] });
      return [];
    } catch (error) {
      if (!(error instanceof ContractError)) throw error;
      return error.violations.map((violation) => violation.message);
    }
  }

  it('refuses a group inside itself, directly or through others, naming the cycle and the link to cut', () => {
    const a = { name: 'a', description: 'A.', groups: [] as ToolGroup[] };
    const b = { name: 'b', description: 'B.', groups: [a] };
    a.groups.push(b);
    expect(violationsOf([a])).toEqual(["[toolset 'notes'] The groups form a cycle: 'a' → 'b' → 'a'. Fix: remove 'a' from the groups of 'b': a group may belong to larger groups, never to one it contains."]);
    const self = { name: 'self', description: 'Self.', groups: [] as ToolGroup[] };
    self.groups.push(self);
    expect(violationsOf([self])).toEqual(["[toolset 'notes'] The group 'self' belongs to itself. Fix: remove 'self' from the groups of 'self': a group may belong to larger groups, never to one it contains."]);
  });

  it('refuses a group named like a toolset, or two different groups of one name', () => {
    expect(violationsOf([defineGroup({ name: 'notes', description: 'Notes again.' })])).toEqual([
      "[toolset 'notes'] The group 'notes' has the name of a toolset: a client selecting 'notes' (?toolsets=) could not tell which is meant. Fix: give the group a name of its own, and declare each group once (export the defineGroup(...) value and import it wherever a toolset joins it).",
    ]);
    const outer = defineGroup({ name: 'outer', description: 'Outer.', groups: [defineGroup({ name: 'top', description: 'Top.' })] });
    expect(violationsOf([outer, defineGroup({ name: 'top', description: 'Another top.' })])).toEqual([expect.stringContaining("The group 'top' has the name of another group definition")]);
    // The same definition twice (a library built into two bundles) is one group.
    expect(violationsOf([defineGroup({ name: 'top', description: 'Top.' }), defineGroup({ name: 'top', description: 'Top.' })])).toEqual([]);
  });

  it('refuses a group a client could not select, one without a description, and an entry that is no group', () => {
    expect(violationsOf([defineGroup({ name: 'two words', description: 'Spaces.' })])).toEqual([
      "[toolset 'notes'] The group name \"two words\" cannot be sent in ?toolsets=. Fix: use letters, digits, dots, hyphens and underscores (up to 64), starting with a letter or digit.",
    ]);
    expect(violationsOf([defineGroup({ name: 'quiet', description: ' ' })])).toEqual([expect.stringContaining("The group 'quiet' has no description. Fix: say what the group is for")]);
    expect(violationsOf(['github'])).toEqual([
      "[toolset 'notes'] @Toolset({ groups }) holds the string \"github\", not a group. Fix: make each entry with defineGroup({ name, description }) from '@toolsets/core'.",
    ]);
  });
});
