/**
 * The third-party packages `@toolsets/core` runs on, as its package.json lists them (a spec keeps
 * the two in step): its own dependencies, and the peers an app must own the single copy of.
 */
export const CORE_DEPENDENCIES = ['@modelcontextprotocol/node', 'jose', 'minisearch', 'negotiator', 'typebox'] as const;
export const CORE_PEER_DEPENDENCIES = ['@modelcontextprotocol/server', 'class-transformer', 'class-validator', 'reflect-metadata', 'tsyringe'] as const;
