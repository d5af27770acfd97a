import type { CreateNodesV2 } from '@nx/devkit';

/** The targets the plugin infers: see create-nodes.cjs. */
export declare const createNodesV2: CreateNodesV2;

/** The tag the generators give a toolset library: it gets a `contract` target. */
export declare const TOOLSET_TAG = 'type:toolset';
/** The tag the generators give an app: it gets an app `contract` target. */
export declare const APP_TAG = 'type:app';
