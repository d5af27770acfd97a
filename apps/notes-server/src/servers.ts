import 'reflect-metadata';
import { buildServer, type ServerDefinition } from '@toolsets/core';
import { NotesToolset } from '@toolsets/notes';

/**
 * The notes server: over HTTP, with AUTH_ISSUER set, every call needs an access token from that
 * issuer, and notes:read or notes:write as each tool declares; over stdio the process owner is the
 * one user. `main.ts` serves it, and the `contract` target checks it without listening.
 */
export function buildServers(): ServerDefinition {
  return buildServer({ name: 'notes', version: '0.1.0', toolsets: [NotesToolset] });
}
