import 'reflect-metadata';
import { codeMode } from '@toolsets/code-mode';
import { buildServer, type ServerDefinition } from '@toolsets/core';
import { CredentialDemoToolset } from '@toolsets/credential-demo';
import { EverythingToolset } from '@toolsets/everything';
import { HelloToolset } from '@toolsets/hello';
import { NotesToolset } from '@toolsets/notes';
import { ReportsToolset } from '@toolsets/reports';

/**
 * Both demo toolsets, each its own server at /<name>/mcp, and both together at /demo/mcp, where a
 * client selects groups per request (`?toolsets=hello`, `?readonly=1`, `?mode=discovery`), and
 * code mode (`?mode=code`: a model's TypeScript program calls both toolsets, in a sandbox); and
 * the notes at /notes/mcp, which check access tokens when AUTH_ISSUER is set (AUTH_MOUNTS=notes
 * keeps the others open); and the reports at /reports/mcp, whose tools run as MCP tasks for
 * clients that support them (on Redis when REDIS_URL is set); and at /everything/mcp the official
 * reference server (`@modelcontextprotocol/server-everything`, over stdio) as a toolset generated
 * from it (libs/toolsets/everything), typed and checked, beside hello. The `contract` target checks
 * them without listening.
 */
export function buildServers(): ServerDefinition[] {
  return [
    buildServer({ name: 'hello', version: '0.1.0', toolsets: [HelloToolset] }),
    buildServer({ name: 'credential-demo', version: '0.1.0', toolsets: [CredentialDemoToolset] }),
    buildServer({ name: 'demo', version: '0.1.0', toolsets: [HelloToolset, CredentialDemoToolset], codeMode: codeMode() }),
    buildServer({ name: 'notes', version: '0.1.0', toolsets: [NotesToolset] }),
    buildServer({ name: 'reports', version: '0.1.0', toolsets: [ReportsToolset] }),
    buildServer({ name: 'everything', version: '0.1.0', toolsets: [EverythingToolset, HelloToolset] }),
  ];
}
