#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

/** Headers from the environment, one 'name: value' per line: credentials stay out of \`ps\` and shell history. */
const HEADERS_VARIABLE = 'TOOLSETS_CALL_HEADERS';

const USAGE = `Usage: toolsets-call <MCP URL> <tool> ['<arguments as JSON>'] [-H 'name: value' ...]

Calls one tool of a server over streamable HTTP and prints its result: the structuredContent as
JSON, else its text. Exits 1 when the tool answers with an error.
  toolsets-call http://127.0.0.1:8000/hello/mcp hello '{"name":"Ada"}'
  toolsets-call http://127.0.0.1:8000/credential-demo/mcp whoami -H 'x-demo-token: abc'
  toolsets-call http://127.0.0.1:8000/hello/mcp --list      (the tools, one per line)

Credentials are better sent from the environment than as -H arguments, which other users see in
ps and which shell history keeps: ${HEADERS_VARIABLE} holds one 'name: value' header per line
(-H of the same name wins).
  read -rs TOKEN && ${HEADERS_VARIABLE}="x-demo-token: $TOKEN" toolsets-call http://127.0.0.1:8000/credential-demo/mcp whoami`;

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
  const add = (header: string, where: string) => {
    const colon = header.indexOf(':');
    // The name alone in the message: the value may be a credential.
    if (colon <= 0) throw new Error(`${where} holds a line that is not a header (${header.trim() === '' ? 'empty' : `no 'name: value'`}): write each as 'name: value'.`);
    headers[header.slice(0, colon).trim().toLowerCase()] = header.slice(colon + 1).trim();
  };
  for (const line of (process.env[HEADERS_VARIABLE] ?? '').split(/\r?\n/)) if (line.trim() !== '') add(line, HEADERS_VARIABLE);
  for (const header of values.header) add(header, `-H ${JSON.stringify(header.slice(0, Math.max(0, header.indexOf(':'))) || '…')}`);
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
