import { joinPathFragments, type Tree } from '@nx/devkit';
import { writeGeneratedFiles } from '../utils/generated-files';
import { generateMcpToolset, type GeneratedMcpToolset } from './generate-mcp-toolset';
import { MCP_CONFIG_FILE, MCP_SNAPSHOT_FILE, type McpConfig } from './mcp-config';
import type { UpstreamSnapshot } from './upstream-snapshot';

/** What `mcp.config.json` holds: the toolset's name, the upstream's source and the curation. */
export interface McpLibraryConfig extends McpConfig {
  name: string;
}

/** Whether the project is a library generated from an upstream MCP server. */
export function isMcpLibrary(tree: Tree, projectRoot: string): boolean {
  return tree.exists(joinPathFragments(projectRoot, MCP_SNAPSHOT_FILE)) && tree.exists(joinPathFragments(projectRoot, MCP_CONFIG_FILE));
}

/** Regenerates a library's sources from its snapshot and config, into the tree; `changed` says whether a file differed. */
export function writeMcpSources(tree: Tree, projectRoot: string): GeneratedMcpToolset & { changed: boolean } {
  const config = JSON.parse(tree.read(joinPathFragments(projectRoot, MCP_CONFIG_FILE), 'utf-8')!) as McpLibraryConfig;
  const snapshot = JSON.parse(tree.read(joinPathFragments(projectRoot, MCP_SNAPSHOT_FILE), 'utf-8')!) as UpstreamSnapshot;
  const generated = generateMcpToolset(config.name, snapshot, config);
  const changed = writeGeneratedFiles(tree, projectRoot, generated.files);
  return { ...generated, changed };
}
