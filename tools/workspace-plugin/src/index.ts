export { createNodesV2 } from './plugin/contract-target';
