#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const USAGE = `Usage: toolsets-call <MCP URL> <tool> ['<arguments as JSON>'] [-H 'name: value' ...]

Calls one tool of a server over streamable HTTP and prints its result: the structuredContent as
JSON, else its text. Exits 1 when the tool answers with an error.
  toolsets-call http://127.0.0.1:8000/hello/mcp hello '{"name":"Ada"}'
  toolsets-call http://127.0.0.1:8000/credential-demo/mcp whoami -H 'x-demo-token: abc'
  toolsets-call http://127.0.0.1:8000/hello/mcp --list      (the tools, one per line)`;

/** One tool call from the shell, with the SDK's own client: for the edit loop and for scripts. */
async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { header: { type: 'string', short: 'H', multiple: true, default: [] }, list: { type: 'boolean', default: false }, help: { type: 'boolean', default: false } },
  });
  const [url, tool, json] = positionals;
  if (values.help || !url || (!tool && !values.list)) {
    process.stdout.write(`${USAGE}\n`);
    return values.help ? 0 : 2;
  }
  if (!URL.canParse(url)) throw new Error(`${JSON.stringify(url)} is not a URL: give the server's MCP endpoint, such as http://127.0.0.1:8000/mcp.`);
  const headers: Record<string, string> = {};
  for (const header of values.header) {
    const colon = header.indexOf(':');
    if (colon <= 0) throw new Error(`-H ${JSON.stringify(header)} is not a header: write it as 'name: value'.`);
    headers[header.slice(0, colon).trim().toLowerCase()] = header.slice(colon + 1).trim();
  }
  let args: Record<string, unknown> = {};
  if (json !== undefined) {
    try {
      args = JSON.parse(json) as Record<string, unknown>;
    } catch {
      throw new Error(`The arguments must be a JSON object, such as '{"name":"Ada"}' (got ${JSON.stringify(json.slice(0, 80))}).`);
    }
    if (typeof args !== 'object' || args === null || Array.isArray(args)) throw new Error(`The arguments must be a JSON object, such as '{"name":"Ada"}'.`);
  }
  const client = new Client({ name: 'toolsets-call', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  try {
    if (values.list) {
      const { tools } = await client.listTools();
      for (const listed of tools) process.stdout.write(`${listed.name}\t${(listed.description ?? '').split('\n')[0]}\n`);
      return 0;
    }
    const result = await client.callTool({ name: tool!, arguments: args });
    const text = (result.content as { type: string; text?: string }[] | undefined)?.filter((block) => block.type === 'text').map((block) => block.text).join('\n');
    process.stdout.write(`${result.structuredContent !== undefined ? JSON.stringify(result.structuredContent, null, 2) : (text ?? '')}\n`);
    return result.isError ? 1 : 0;
  } finally {
    await client.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  },
);
