'use strict';
// Serves a generated library's code in a process of its own, whose environment holds nothing but
// PATH and the library's base URL (the mock's): what a document smuggled into that code finds no
// token to take. Calls each tool once with the arguments a model would make from its schema.
// Reads { workspaceRoot, files, name } as JSON on stdin; writes what it measured as JSON on stdout,
// or why it could not on stderr, exit 1.
const { createRequire } = require('node:module');
const { join } = require('node:path');
const { loadGeneratedSources } = require('../openapi/generated-modules.cjs');
const { argumentsFor } = require('./arguments-for.cjs');

let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => (input += chunk));
process.stdin.on('end', () => {
  measure(JSON.parse(input)).then(
    (measured) => process.stdout.write(JSON.stringify(measured)),
    (error) => {
      process.stderr.write(error instanceof Error ? error.message : String(error));
      process.exitCode = 1;
    },
  );
});

async function measure({ workspaceRoot, files, name }) {
  const requireInWorkspace = createRequire(join(workspaceRoot, 'package.json'));
  const core = requireInWorkspace('@toolsets/core');
  const { connectToolset } = requireInWorkspace('@toolsets/testing');
  const toolsets = core.findToolsets(loadGeneratedSources(files, requireInWorkspace, requireInWorkspace('typescript')));
  // Why the server refused an answer (the field and the rule): the last line logged, for the report.
  let logged = '';
  const keep = (message, fields) => (logged = `${message} ${JSON.stringify(fields?.errors ?? fields?.error ?? '')}`);
  const server = core.buildServer({ name, version: '0.0.0', toolsets, logger: { info: () => undefined, warn: keep, error: keep } });
  const headers = Object.fromEntries(server.catalog.toolsets.flatMap((toolset) => toolset.credentialHeaders).map((header) => [header, 'measure-credential']));
  const client = await connectToolset(server, { headers });
  try {
    const tools = await client.listTools();
    const calls = [];
    for (const tool of tools) {
      logged = '';
      const result = await client.call(tool.name, argumentsFor(tool.inputSchema));
      const unchecked = result.structuredContent?.unchecked !== undefined;
      // A ToolError says what failed; an answer the server refused (it broke the document) is in the log only.
      const failure = !result.isError ? undefined : result.structuredContent ? JSON.stringify(result.structuredContent).slice(0, 300) : `${JSON.stringify(result.content).slice(0, 150)} (log: ${logged.slice(0, 300)})`;
      calls.push({ name: tool.name, origin: server.catalog.tools.get(tool.name)?.origin, typed: !result.isError && !unchecked, lenient: unchecked, bytes: Buffer.byteLength(JSON.stringify(result.structuredContent ?? result.content)), ...(failure && { failure }) });
    }
    return { listBytes: Buffer.byteLength(JSON.stringify({ tools })), calls };
  } finally {
    await client.close();
  }
}
