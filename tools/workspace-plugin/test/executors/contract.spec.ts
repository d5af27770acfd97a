import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import contractExecutor from '../../src/executors/contract/executor';
import { capturedConsole, executorContext, workspaceRoot } from '../support/executor-context';

const fixture = (name: string) => join(workspaceRoot, `tools/workspace-plugin/test/fixtures/${name}/index.js`);

describe('contract executor', () => {
  const { out, err } = capturedConsole();
  let workspace: string;
  const root = 'libs/toolsets/counting';
  const snapshotPath = () => join(workspace, root, 'contract.json');
  const setVersion = (version: string) => writeFileSync(join(workspace, root, 'package.json'), JSON.stringify({ name: '@toolsets/counting', version }));
  const run = (options: { update?: boolean; entry?: string } = {}) => contractExecutor({ entry: fixture('conforming-toolset'), ...options }, executorContext('counting', root, workspace));
  /** Rewrites the committed snapshot, as if the catalog had been different when it was accepted. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a test reaches into the JSON at will
  const editSnapshot = (edit: (snapshot: { version: string; tools: Record<string, any>[] }) => void) => {
    const snapshot = JSON.parse(readFileSync(snapshotPath(), 'utf-8'));
    edit(snapshot);
    writeFileSync(snapshotPath(), JSON.stringify(snapshot, null, 2));
  };

  beforeEach(() => {
    workspace = mkdtempSync(join(tmpdir(), 'contract-executor-'));
    mkdirSync(join(workspace, root), { recursive: true });
    setVersion('0.1.0');
  });
  afterEach(() => rmSync(workspace, { recursive: true, force: true }));

  it('passes a conforming toolset and prints each tool with its output arms', async () => {
    await expect(run()).resolves.toEqual({ success: true });
    expect(out[0]).toBe(
      [
        'toolset counting',
        '  count() -> CountResult { message: string, count: number } | ToolError { error: string, detail: string }',
        '1 tool follows the contract.',
      ].join('\n'),
    );
  });

  it('prints the list size of each group of a library with several toolsets', async () => {
    await expect(run({ entry: fixture('grouped-toolset') })).resolves.toEqual({ success: true });
    const printed = out.join('\n');
    expect(printed).toMatch(/^2 tools; tools\/list is [\d,]+ bytes/m);
    expect(printed).toMatch(/^tools\/list: 2 tools, [\d,]+ bytes \(~[\d,]+ tokens\); in discovery mode [\d,]+ bytes/m);
    expect(printed).toMatch(/^ {2}group counting: 1 tool, [\d,]+ bytes/m);
    expect(printed).toMatch(/^ {2}group echoing: 1 tool, [\d,]+ bytes/m);
  });

  it('prints the tools/list ETag a server serving exactly these tools sends', async () => {
    await expect(run()).resolves.toEqual({ success: true });
    const printed = out.join('\n').match(/^tools\/list ETag: ("[\w-]{22}")$/m)?.[1];
    expect(printed).toBeDefined();
    // The fixture's own core (the one the executor loads), serving the fixture over HTTP.
    const entry = fixture('conforming-toolset');
    const core = createRequire(entry)('@toolsets/core') as typeof import('@toolsets/core');
    const toolsets = core.findToolsets(createRequire(entry)(entry));
    const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
    const handle = await core.serveHttp(core.buildServer({ name: 'counting', version: '0.1.0', toolsets, logger: quiet }), { port: 0, logger: quiet });
    try {
      const response = await fetch(handle.mounts[0]!.url, {
        method: 'POST',
        headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json', 'mcp-protocol-version': '2025-11-25' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      await response.text();
      expect(response.headers.get('etag')).toBe(printed);
    } finally {
      await handle.close();
    }
  });

  it('writes contract.json on the first run and says to commit it', async () => {
    await expect(run()).resolves.toEqual({ success: true });
    expect(out.join('\n')).toContain(`Wrote ${root}/contract.json: 1 tool at version 0.1.0. Commit it`);
    const snapshot = JSON.parse(readFileSync(snapshotPath(), 'utf-8'));
    expect(snapshot.version).toBe('0.1.0');
    expect(snapshot.tools.map((tool: { name: string }) => tool.name)).toEqual(['count']);
    expect(snapshot.tools[0].outputSchema.anyOf[1].title).toBe('ToolError');
  });

  it('passes when the catalog matches the snapshot', async () => {
    await run();
    await expect(run()).resolves.toEqual({ success: true });
    expect(out.at(-1)).toBe(`\nThe catalog matches ${root}/contract.json (version 0.1.0).`);
  });

  it('fails on a breaking change, naming it, until the version is bumped and --update accepts it', async () => {
    await run();
    editSnapshot((snapshot) => {
      snapshot.tools[0].outputSchema.anyOf[0].properties.total = { type: 'number' };
    });
    await expect(run()).resolves.toEqual({ success: false });
    expect(out.join('\n')).toContain(
      "count: output /anyOf/0/properties/total removed (output-property-removed, breaking): clients that read 'total' will break. Restore it, or accept it with --update and bump the minor version (to 0.2.0).",
    );
    const needed = `version 0.1.0 does not cover these changes: they need a minor bump over 0.1.0. Set "version": "0.2.0" in ${root}/package.json.`;
    expect(err.join('\n')).toContain(`${needed} Then run nx run counting:contract --update.`);
    // Said once, not once in the report and again as the failure.
    expect([...out, ...err].join('\n').split(needed)).toHaveLength(2);

    await expect(run({ update: true })).resolves.toEqual({ success: false });
    expect(err.join('\n')).toContain(`Not accepted: ${root}/contract.json is unchanged. version 0.1.0 does not cover these changes: they need a minor bump over 0.1.0. Set "version": "0.2.0" in ${root}/package.json.`);
    expect(readFileSync(snapshotPath(), 'utf-8')).toContain('"total"');

    setVersion('0.2.0');
    await expect(run({ update: true })).resolves.toEqual({ success: true });
    expect(out.join('\n')).toContain(`Accepted into ${root}/contract.json at version 0.2.0.`);
    expect(readFileSync(snapshotPath(), 'utf-8')).not.toContain('"total"');
    await expect(run()).resolves.toEqual({ success: true });
  });

  it('fails on any change the snapshot does not record, even with the version bumped, saying its kind and the bump, until --update records it', async () => {
    await run();
    editSnapshot((snapshot) => {
      delete snapshot.tools[0].outputSchema.anyOf[0].properties.count;
      snapshot.tools[0].description = 'Count.';
    });
    await expect(run()).resolves.toEqual({ success: false });
    expect(err.join('\n')).toContain('they need a patch bump over 0.1.0. Set "version": "0.1.1"');
    setVersion('0.1.1');
    await expect(run()).resolves.toEqual({ success: false });
    const report = out.join('\n');
    expect(report).toContain('2 changes since libs/toolsets/counting/contract.json (version 0.1.0): 1 dangerous, 1 safe.');
    expect(report).toContain('count: description changed (tool-description-changed, dangerous)');
    expect(report).toContain('    was: "Count."\n');
    expect(report).toContain("count: output /anyOf/0/properties/count added (required) (output-property-added, safe)");
    expect(err.at(-1)).toBe(
      `${root}/contract.json is out of date (1 dangerous, 1 safe; version 0.1.0 → 0.1.1: covers the changes (they need 0.1.1 or later)). Run nx run counting:contract --update to record it, and commit the diff.`,
    );
    await expect(run({ update: true })).resolves.toEqual({ success: true });
    await expect(run()).resolves.toEqual({ success: true });
    expect(JSON.parse(readFileSync(snapshotPath(), 'utf-8')).version).toBe('0.1.1');
  });

  it("records the credential headers each tool's toolset reads, and fails when one is added until the version covers it", async () => {
    const credentialRun = (options: { update?: boolean } = {}) => contractExecutor({ entry: fixture('credential-toolset'), ...options }, executorContext('counting', root, workspace));
    await credentialRun();
    const written = JSON.parse(readFileSync(snapshotPath(), 'utf-8'));
    expect(written.records).toEqual(['credentialHeaders', 'groups']);
    expect(written.tools[0].credentialHeaders).toEqual(['x-account-key']);
    expect(written.groups).toEqual([{ name: 'counting' }]);

    // A snapshot from before headers were recorded says nothing about them: it still matches.
    editSnapshot((snapshot) => {
      delete (snapshot as { records?: unknown }).records;
      delete snapshot.tools[0].credentialHeaders;
    });
    await expect(credentialRun()).resolves.toEqual({ success: true });

    // One that recorded none: the header is new, and every client must now be configured with it.
    editSnapshot((snapshot) => {
      (snapshot as { records?: unknown }).records = ['credentialHeaders'];
    });
    await expect(credentialRun()).resolves.toEqual({ success: false });
    expect(out.join('\n')).toContain('whoami: credentialHeaders now reads the credential header x-account-key (credential-header-added, breaking)');
  });

  it('records the groups clients select, and fails when one is gone until the version covers it', async () => {
    await run();
    expect(JSON.parse(readFileSync(snapshotPath(), 'utf-8')).groups).toEqual([{ name: 'counting' }]);
    // As if the snapshot had served a group the library no longer has.
    editSnapshot((snapshot) => {
      (snapshot as { groups?: unknown[] }).groups!.push({ name: 'tallies', description: 'Tallies.' });
    });
    await expect(run()).resolves.toEqual({ success: false });
    expect(out.join('\n')).toContain('tallies: group removed (group-removed, breaking): clients that select the group (?toolsets=, X-MCP-Toolsets) get a 400');
    // A snapshot from before groups were recorded says nothing about them.
    editSnapshot((snapshot) => {
      (snapshot as { records?: unknown }).records = ['credentialHeaders'];
    });
    await expect(run()).resolves.toEqual({ success: true });
  });

  it('fails when only the version moved, until --update records it', async () => {
    await run();
    setVersion('0.1.1');
    await expect(run()).resolves.toEqual({ success: false });
    expect(err.at(-1)).toBe(`${root}/contract.json records version 0.1.0, and the package is at 0.1.1: run nx run counting:contract --update to record it.`);
    await expect(run({ update: true })).resolves.toEqual({ success: true });
    await expect(run()).resolves.toEqual({ success: true });
  });

  it('refuses a damaged snapshot, and a package without a version, saying what to do', async () => {
    await run();
    writeFileSync(snapshotPath(), '{ "tools": ');
    await expect(run()).resolves.toEqual({ success: false });
    expect(err.join('\n')).toContain('contract.json is not valid JSON');
    writeFileSync(join(workspace, root, 'package.json'), '{}');
    await expect(run()).resolves.toEqual({ success: false });
    expect(err.join('\n')).toContain(`${root}/package.json has no "version"`);
  });

  it('fails a toolset with a deliberate contract violation, listing every violation with its fix', async () => {
    await expect(run({ entry: fixture('broken-toolset') })).resolves.toEqual({ success: false });
    const message = err.join('\n');
    expect(message).toContain("Server 'counting' refused to start: 2 contract violations.");
    expect(message).toContain("[toolset 'broken' > tool 'list'] The tool has no description");
    expect(message).toContain("'items' of 'ListResult' reflects as Array");
    expect(message).toContain('Fix: give @Field an explicit type');
  });

  it('fails a library that exports no toolset, saying what to export', async () => {
    await expect(run({ entry: fixture('no-toolset') })).resolves.toEqual({ success: false });
    expect(err.join('\n')).toContain('exports no @Toolset class');
  });

  it('fails when the toolset was not built, saying to build it', async () => {
    await expect(contractExecutor({}, executorContext('ghost', 'libs/toolsets/ghost', workspace))).resolves.toEqual({ success: false });
    expect(err.join('\n')).toContain('libs/toolsets/ghost/dist/index.js does not exist: build the toolset first (nx run ghost:build)');
  });
});
