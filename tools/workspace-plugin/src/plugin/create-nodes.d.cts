import type { CreateNodesV2 } from '@nx/devkit';

/** The targets the plugin infers: see create-nodes.cjs. */
export declare const createNodesV2: CreateNodesV2;
