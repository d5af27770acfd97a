import 'reflect-metadata';
import { buildServer, defineGroup, Field, serveHttp, Tool, ToolResult, Toolset, type ClassType, type HttpServerHandle } from '@toolsets/core';
import { closeUpstreams } from '@toolsets/mcp-upstream';
import { connectToolset } from '@toolsets/testing';
import { generateMcpToolset } from '../../src/mcp/generate-mcp-toolset';
import { readUpstream, type UpstreamSnapshot } from '../../src/mcp/upstream-snapshot';
import { loadGeneratedSources } from '../../src/openapi/load-generated';

// An upstream that groups its tools (SEP-2084), written with toolsets itself and served over HTTP:
// two groups of tools inside a larger group, and a group of its own.
const vendors = defineGroup({ name: 'vendors', description: 'Services of outside vendors.' });

class Said extends ToolResult {
  @Field()
  said!: string;
}

@Toolset({ name: 'issues', description: 'File and triage issues.', groups: [vendors] })
class IssuesToolset {
  @Tool({ description: 'Files an issue.', returns: Said })
  file_issue(): Said {
    return { message: 'Filed.', said: 'issue' };
  }
}

@Toolset({ name: 'pulls', description: 'Review pull requests.', groups: [vendors] })
class PullsToolset {
  @Tool({ description: 'Reviews a pull request.', returns: Said })
  review_pull(): Said {
    return { message: 'Reviewed.', said: 'pull' };
  }
}

@Toolset({ name: 'clock', description: 'Tell the time.' })
class ClockToolset {
  @Tool({ description: 'Says the time.', returns: Said })
  time(): Said {
    return { message: 'Noon.', said: 'noon' };
  }
}

const quiet = { info: () => undefined, warn: () => undefined, error: (message: string, fields?: unknown) => console.error(message, fields) };

describe("a toolset library generated from a server that groups its tools: the upstream's groups as toolsets and larger groups", () => {
  let upstream: HttpServerHandle;
  let generated: ReturnType<typeof generateMcpToolset>;
  let served: ClassType[];

  beforeAll(async () => {
    upstream = await serveHttp(buildServer({ name: 'grouped', version: '1', toolsets: [IssuesToolset, PullsToolset, ClockToolset], logger: quiet }), { port: 0, logger: quiet });
    const source = { url: upstream.mounts[0]!.url };
    const snapshot = await readUpstream({ source });
    expect(snapshot.groups?.map((group) => group.name)).toEqual(['issues', 'pulls', 'clock', 'vendors']);
    // Its Server Card, identity only: no endpoint or header is recorded.
    expect(snapshot.card).toEqual({ name: expect.stringContaining('grouped'), version: '1', description: expect.any(String) });
    generated = generateMcpToolset('acme', snapshot, { name: 'acme', source });
    const exported = loadGeneratedSources(generated.files) as Record<string, ClassType>;
    served = generated.classNames.map((name) => exported[name]!);
  });
  afterAll(async () => {
    await closeUpstreams();
    await upstream?.close();
  });

  it('writes one toolset per group that holds tools, and a larger group for the group that holds groups', () => {
    expect(generated.classNames).toEqual(['AcmeIssuesToolset', 'AcmePullsToolset', 'AcmeClockToolset']);
    const source = generated.files['src/generated/acme.toolset.ts']!;
    expect(source).toContain("export const ACME_VENDORS_GROUP = defineGroup({ name: 'acme-vendors', description: 'Services of outside vendors.");
    expect(source.match(/groups: \[ACME_VENDORS_GROUP\]/g)).toHaveLength(2);
    // One connection for the library: registered once.
    expect(source.match(/@registry/g)).toHaveLength(1);
  });

  it.each(['modern', 'legacy'] as const)('serves each group as a toolset a %s client selects and calls, and the larger group selects its toolsets', async (era) => {
    const app = buildServer({ name: 'app', version: '1', toolsets: served, logger: quiet });
    expect(app.catalog.toolsets.map((toolset) => toolset.name)).toEqual(['acme-issues', 'acme-pulls', 'acme-clock']);
    const pulls = await connectToolset(app, { era, selection: { toolsets: ['acme-pulls'] } });
    try {
      expect((await pulls.listTools()).map((tool) => tool.name)).toEqual(['review_pull']);
      expect((await pulls.call('review_pull')).structuredContent).toMatchObject({ data: { said: 'pull' } });
    } finally {
      await pulls.close();
    }
    // The larger group selects both of its toolsets (?toolsets=acme-vendors), as the upstream's own groups/list nests them.
    expect([...app.views.forHttp('/mcp?toolsets=acme-vendors', () => undefined).tools.keys()].sort()).toEqual(['file_issue', 'review_pull']);
  });
});

describe("an upstream's group names as toolset names", () => {
  const inGroup = (name: string, group: string) => ({ name, description: `Does ${name}.`, inputSchema: { type: 'object' as const }, _meta: { 'io.modelcontextprotocol/groups': [group] } });
  const snapshot: UpstreamSnapshot = {
    // The upstream's own words, never code: a name that would end a comment.
    server: { name: 'names */ throw 1; /*', version: '1' },
    protocolVersion: '2026-07-28',
    era: 'modern',
    tools: [inGroup('one', 'Pull Requests'), inGroup('two', '日本'), inGroup('three', '*/ throw 1; /*'), inGroup('four', 'pull-requests')],
    prompts: [],
    resources: [],
    resourceTemplates: [],
    groups: [{ name: 'Pull Requests' }, { name: '日本' }, { name: '*/ throw 1; /*' }, { name: 'pull-requests' }],
  };

  it('makes each a lower-case ASCII name of its own, and the library loads and passes the startup gate', () => {
    const generated = generateMcpToolset('names', snapshot, { name: 'names', source: { command: 'none' } });
    const exported = loadGeneratedSources(generated.files) as Record<string, ClassType>;
    const app = buildServer({ name: 'app', version: '1', toolsets: generated.classNames.map((name) => exported[name]!), logger: quiet });
    expect(app.catalog.toolsets.map((toolset) => toolset.name)).toEqual(['names-pull-requests', 'names-group', 'names-throw-1', 'names-pull-requests-2']);
    expect(new Set(generated.classNames).size).toBe(4);
  });
});
