import type { McpHttpHandler } from '@modelcontextprotocol/server';
import type { NodeMcpRequestHandler } from '@modelcontextprotocol/node';
import type { ServerDefinition } from '../../server/build-server';
import type { GroupSize, ListSize } from '../../selection/list-sizes';
import type { DirectCalls } from '../../server/tools/direct-calls';
import type { MountAuth } from '../auth/mount-auth';
import type { ListHint } from './list-answers';
import type { LegacySessions } from './sessions/legacy-sessions';

/** One MCP endpoint of the HTTP server, as the router serves it: its server, its path and what answers there. */
export interface Mount {
  server: ServerDefinition;
  path: string;
  /** The 2026-07-28 cache fields of its lists: the server's TTL, `public` unless it checks tokens. */
  listHint: ListHint;
  handler: McpHttpHandler;
  node: NodeMcpRequestHandler;
  /** Where the SDK's and the bridge's errors go: clipped and rate-limited. */
  onerror: (error: Error) => void;
  /** 2025-era sessions, when on: legacy requests go there instead of the stateless handler. */
  sessions?: LegacySessions;
  /** Declared credential headers: each may appear once per request. */
  credentialHeaders: ReadonlySet<string>;
  /** Its door, when it checks access tokens. */
  auth?: MountAuth;
  /** Its fast path (`fastPath`, on by default): `tools/call` of both eras without an SDK server per request. */
  calls?: DirectCalls;
}

/** What the HTTP server says about one of its mounts (its handle's `mounts`). */
export interface MountInfo {
  name: string;
  url: string;
  tools: string[];
  credentialHeaders: readonly string[];
  /** Its groups, each selectable with `?toolsets=`, with their tool counts and list sizes. */
  toolsets: GroupSize[];
  /** Its whole `tools/list`, the list in discovery mode (`?mode=discovery`), and in code mode (`?mode=code`) where it serves it. */
  list: ListSize;
  discoveryList: ListSize;
  codeList?: ListSize;
  /** When it checks access tokens: its resource identifier, its metadata URL and the issuer. */
  oauth?: { resource: string; metadata: string; issuer: string };
}
