export { createNodesV2 } from './plugin/create-nodes.cjs';
