'use strict';
// Runs a document's generated code in a process of its own, whose environment holds nothing but
// PATH: whatever a hostile document got into that code finds no token or credential to take.
// Reads { workspaceRoot, files, name } as JSON on stdin; writes the gated catalog's tool entries
// (descriptor, and requiredScopes when any) as JSON on stdout, or the gate's message on stderr, exit 1.
const { createRequire } = require('node:module');
const { join } = require('node:path');
const { loadGeneratedSources } = require('./generated-modules.cjs');

let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => (input += chunk));
process.stdin.on('end', () => {
  try {
    const { workspaceRoot, files, name } = JSON.parse(input);
    const requireInWorkspace = createRequire(join(workspaceRoot, 'package.json'));
    const core = requireInWorkspace('@toolsets/core');
    const toolsets = core.findToolsets(loadGeneratedSources(files, requireInWorkspace, requireInWorkspace('typescript')));
    const catalog = core.runContractGate(name, toolsets);
    // As the contract target records them (contract/catalog-entries.ts).
    // The parent keeps only the `_meta` a snapshot records (contract/catalog-entries.ts, withRecordedMeta).
    const entries = [...catalog.tools.values()].map((tool) => ({
      ...tool.descriptor,
      ...(tool.origin !== undefined && { origin: tool.origin }),
      ...(tool.requiredScopes.length > 0 && { requiredScopes: [...tool.requiredScopes] }),
      ...(tool.toolset.credentialHeaders.length > 0 && { credentialHeaders: [...tool.toolset.credentialHeaders].sort() }),
    }));
    process.stdout.write(JSON.stringify(entries));
  } catch (error) {
    process.stderr.write(error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
  }
});
